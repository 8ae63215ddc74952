/** Registers the service worker once the page has loaded and is idle, so its install never competes with the first paint. */
export function registerServiceWorkerWhenIdle(): void {
  if (!('serviceWorker' in navigator)) return
  const register = () =>
    void navigator.serviceWorker
      .register('/sw.js', { scope: '/' })
      .catch((error: unknown) => console.warn('Service worker registration failed', error))
  const whenIdle = () =>
    'requestIdleCallback' in window
      ? requestIdleCallback(register, { timeout: 5000 })
      : setTimeout(register, 50)
  if (document.readyState === 'complete') whenIdle()
  else window.addEventListener('load', whenIdle, { once: true })
}
