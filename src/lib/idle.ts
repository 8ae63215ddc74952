/** Where the browser has no idle callback, wait this long instead (50 ms). */
export const IDLE_FALLBACK_MS = 50

/**
 * Runs `task` once the page has loaded and the browser is idle (at the latest `timeoutMs` after the load), so
 * background work never competes with the first paint. Answers a way to cancel it.
 */
export function afterLoadWhenIdle(task: () => void, timeoutMs = 3000): () => void {
  let cancelled = false
  let cancelIdle: (() => void) | null = null
  const run = () => {
    if (!cancelled) task()
  }
  const schedule = () => {
    if (cancelled) return
    if ('requestIdleCallback' in window) {
      const handle = requestIdleCallback(run, { timeout: timeoutMs })
      cancelIdle = () => cancelIdleCallback(handle)
    } else {
      const handle = setTimeout(run, IDLE_FALLBACK_MS)
      cancelIdle = () => clearTimeout(handle)
    }
  }
  if (document.readyState === 'complete') schedule()
  else window.addEventListener('load', schedule, { once: true })
  return () => {
    cancelled = true
    window.removeEventListener('load', schedule)
    cancelIdle?.()
  }
}
