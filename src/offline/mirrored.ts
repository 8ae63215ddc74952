import { ApiError } from '../lib/api.ts'
import { afterLoadWhenIdle } from '../lib/idle.ts'

/**
 * The mirror (Dexie) loads on first use, after the screen: it stays off the budget of the first paint (the scan
 * path above all).
 */
export const mirrorStore = () => import('./mirror.ts')

/**
 * Answers from the server, written to the mirror once the page is idle (the screen shows the answer without
 * waiting for Dexie to load and write); when the server cannot be reached, the mirror's answer instead (or the
 * network error, when the mirror has nothing).
 */
export async function mirrored<T>(
  fetch: () => Promise<T>,
  save: (data: T) => Promise<void>,
  load: () => Promise<T | undefined>,
): Promise<T> {
  try {
    const data = await fetch()
    afterLoadWhenIdle(
      () => void save(data).catch((error: unknown) => console.warn('Mirror write failed', error)),
    )
    return data
  } catch (error) {
    if (!(error instanceof ApiError) || !error.isNetworkError) throw error
    const kept = await load().catch(() => undefined)
    if (kept === undefined) throw error
    return kept
  }
}
