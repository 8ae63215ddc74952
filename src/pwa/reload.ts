import { hasUnsavedChanges } from '../lib/unsaved.ts'

const SAFE_MOMENT_POLL_MS = 5_000

/** Runs `apply` now if nothing is being edited, otherwise as soon as the edits are saved or dropped. */
export function whenSafe(apply: () => void): void {
  if (!hasUnsavedChanges()) {
    apply()
    return
  }
  const timer = setInterval(() => {
    if (hasUnsavedChanges()) return
    clearInterval(timer)
    apply()
  }, SAFE_MOMENT_POLL_MS)
}

export const RELOAD_MARKER_KEY = 'trousseau:chunk-reload-at'
const RELOAD_MARKER_TTL_MS = 10_000

/**
 * A chunk that fails to load usually means a new deploy removed it: reload once. The marker, valid 10 s,
 * keeps a broken deploy from looping.
 */
export function reloadAfterChunkError(
  storage: Pick<Storage, 'getItem' | 'setItem'>,
  reload: () => void,
  now = Date.now(),
): boolean {
  const last = Number(storage.getItem(RELOAD_MARKER_KEY) ?? 0)
  if (now - last < RELOAD_MARKER_TTL_MS) return false
  storage.setItem(RELOAD_MARKER_KEY, String(now))
  reload()
  return true
}

/** From the first moment: a page or helper chunk that fails to load reloads the app once (see above). */
export function recoverFromChunkErrors(): void {
  window.addEventListener('vite:preloadError', (event) => {
    if (reloadAfterChunkError(sessionStorage, () => location.reload())) event.preventDefault()
  })
}
