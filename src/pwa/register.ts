import { registerSW } from 'virtual:pwa-register'
import { reloadAfterChunkError, whenSafe } from './reload.ts'
import { isNewerBuild, VERSION_POLL_MS } from './version.ts'

/** Service worker, version polling and chunk-load recovery. */
export function startPwa(): void {
  window.addEventListener('vite:preloadError', (event) => {
    if (reloadAfterChunkError(sessionStorage, () => location.reload())) event.preventDefault()
  })

  let registration: ServiceWorkerRegistration | undefined
  const updateServiceWorker =
    'serviceWorker' in navigator
      ? registerSW({
          onRegisteredSW(_url, swRegistration) {
            registration = swRegistration
          },
          onNeedRefresh() {
            whenSafe(() => void updateServiceWorker?.(true))
          },
        })
      : undefined

  setInterval(async () => {
    if (!(await isNewerBuild())) return
    if (registration) await registration.update()
    else whenSafe(() => location.reload())
  }, VERSION_POLL_MS)
}
