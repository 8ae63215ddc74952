import { registerSW } from 'virtual:pwa-register'
import { reloadAfterChunkError, whenSafe } from './reload.ts'
import { isNewerBuild, VERSION_POLL_MS } from './version.ts'

/** Service worker, new-build detection (hourly, and when the app comes back to the foreground), chunk-load recovery. */
export function startPwa(): void {
  window.addEventListener('vite:preloadError', (event) => {
    if (reloadAfterChunkError(sessionStorage, () => location.reload())) event.preventDefault()
  })

  let registration: ServiceWorkerRegistration | undefined
  let applying = false
  const apply = (reload: () => void) => {
    if (applying) return
    applying = true
    whenSafe(reload)
  }
  const updateServiceWorker =
    'serviceWorker' in navigator
      ? registerSW({
          onRegisteredSW(_url, swRegistration) {
            registration = swRegistration
          },
          onNeedRefresh() {
            apply(() => void updateServiceWorker?.(true))
          },
        })
      : undefined

  let lastCheck = Date.now()
  const check = async () => {
    lastCheck = Date.now()
    if (!(await isNewerBuild())) return
    if (registration)
      await registration.update().catch((error: unknown) => console.warn('Update check failed', error))
    else apply(() => location.reload())
  }
  setInterval(() => void check(), VERSION_POLL_MS)
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible' && Date.now() - lastCheck > 60_000) void check()
  })
}
