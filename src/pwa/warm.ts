/** What a page, once idle, asks the active worker: fetch the deferred files it does not have yet. */
export const WARM_DEFERRED = 'trousseau:warm-deferred'

/**
 * Asks the active worker (once there is one) to cache the deferred files it does not have yet. Called when the
 * page is already idle; the worker itself fetches only online, not when the browser asks to save data, at low
 * priority and a few at a time (public/sw-deferred.js).
 */
export function warmDeferred(): void {
  void navigator.serviceWorker.ready.then((registration) =>
    registration.active?.postMessage({ type: WARM_DEFERRED }),
  )
}
