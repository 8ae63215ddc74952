// The service worker waits for the page: registered once it has loaded and is idle, so that its install (the
// precache of the shell and the field routes) never competes with the first paint; then the worker is asked to
// cache the rest of the build. Tiny on purpose (no workbox-window): the prerendered public pages load it.
import { afterLoadWhenIdle } from '../lib/idle.ts'
import { warmDeferred } from './warm.ts'
import { SW_SCOPE, SW_URL } from './worker.ts'

/** The prerendered public pages' registration (the SPA's is `startPwa`): same script, same scope. */
export function registerServiceWorkerWhenIdle(): void {
  if (!('serviceWorker' in navigator)) return
  afterLoadWhenIdle(() => {
    navigator.serviceWorker
      .register(SW_URL, { scope: SW_SCOPE })
      .then(warmDeferred, (error: unknown) => console.warn('Service worker registration failed', error))
  })
}
