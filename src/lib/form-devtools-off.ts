/**
 * What the production build gives TanStack Form in place of `@tanstack/devtools-event-client` (vite.config.ts):
 * the bridge to TanStack's browser devtools, which no user has. The real one tries to reach them with custom
 * window events on a timer from every form page, lets any script on the page reset a form through them, and
 * weighs 1.3 KiB gzipped on every page with a form. Development and the tests keep the real one.
 */
export class EventClient {
  emit(_eventSuffix: string, _payload: unknown): void {}
  on(_eventSuffix: string, _callback: (event: unknown) => void): () => void {
    return () => {}
  }
  onAll(_callback: (event: unknown) => void): () => void {
    return () => {}
  }
  onAllPluginEvents(_callback: (event: unknown) => void): () => void {
    return () => {}
  }
}
