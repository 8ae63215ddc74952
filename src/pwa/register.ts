import { registerSW } from 'virtual:pwa-register'
import { startPwaWith } from './lifecycle.ts'

/**
 * Service worker (registered once the page has loaded and is idle, then asked to cache the deferred files),
 * new-build detection (hourly, and when the app comes back to the foreground). The SPA loads this module once
 * the page is idle.
 */
export function startPwa(): void {
  startPwaWith(registerSW)
}
