import { registerSW } from 'virtual:pwa-register'
import { startPwaWith } from './lifecycle.ts'

/**
 * Service worker (registered once the page has loaded and is idle, then asked to cache the deferred files),
 * new-build detection (hourly, and when the app comes back to the foreground). The SPA loads this module once
 * the page is idle.
 */
export function startPwa(): void {
  startPwaWith(registerSW)
  // A device that receives push registers its subscription again (the server drops ones unseen for long), and
  // the icon's badge says what waits, now and whenever the app comes back to the foreground.
  const notices = () => import('../api/notices.ts')
  void notices()
    .then(({ refreshPushSubscription, refreshBadge }) =>
      Promise.all([refreshPushSubscription(), refreshBadge()]),
    )
    .catch(() => {})
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState !== 'visible') return
    void notices()
      .then(({ refreshBadge }) => refreshBadge())
      .catch(() => {})
  })
  navigator.serviceWorker?.addEventListener('message', (event: MessageEvent<{ type?: string }>) => {
    if (event.data?.type !== 'push-subscription-changed') return
    void notices()
      .then(({ refreshPushSubscription }) => refreshPushSubscription())
      .catch(() => {})
  })
}
