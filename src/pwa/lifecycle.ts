import type { RegisterSWOptions } from 'vite-plugin-pwa/types'
import { afterLoadWhenIdle } from '../lib/idle.ts'
import { whenSafe } from './reload.ts'
import { isNewerBuild, VERSION_POLL_MS } from './version.ts'
import { warmDeferred } from './warm.ts'

/** `registerSW` of `virtual:pwa-register` (register.ts passes it; tests pass a fake). */
export type RegisterSW = (options: RegisterSWOptions) => (reloadPage?: boolean) => Promise<void>

/**
 * Service worker (registered once the page has loaded and is idle, then asked to cache the deferred files),
 * new-build detection (hourly, and when the app comes back to the foreground). Chunk-load recovery starts
 * before, with the page (`recoverFromChunkErrors`).
 */
export function startPwaWith(registerSW: RegisterSW): void {
  let registration: ServiceWorkerRegistration | undefined
  let updateServiceWorker: ((reloadPage?: boolean) => Promise<void>) | undefined
  let applying = false
  const apply = (reload: () => void) => {
    if (applying) return
    applying = true
    whenSafe(reload)
  }
  if ('serviceWorker' in navigator)
    afterLoadWhenIdle(() => {
      // Same script and scope as register-when-idle.ts (vite.pwa.ts sets them from src/pwa/worker.ts).
      updateServiceWorker = registerSW({
        onRegisteredSW(_url, swRegistration) {
          registration = swRegistration
          warmDeferred()
        },
        onNeedRefresh() {
          apply(() => void updateServiceWorker?.(true))
        },
      })
    })

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
