import { describe, expect, it, vi } from 'vitest'
import { RELOAD_MARKER_KEY, recoverFromChunkErrors, reloadAfterChunkError } from './reload.ts'

function memoryStorage() {
  const values = new Map<string, string>()
  return {
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => values.set(key, value),
    values,
  }
}

describe('chunk-load recovery', () => {
  it('reloads once, then not again within 10 s, then again after', () => {
    const storage = memoryStorage()
    const reload = vi.fn()
    expect(reloadAfterChunkError(storage, reload, 1_000_000)).toBe(true)
    expect(storage.values.get(RELOAD_MARKER_KEY)).toBe('1000000')
    expect(reloadAfterChunkError(storage, reload, 1_009_999)).toBe(false)
    expect(reload).toHaveBeenCalledTimes(1)
    expect(reloadAfterChunkError(storage, reload, 1_010_000)).toBe(true)
    expect(reload).toHaveBeenCalledTimes(2)
  })

  it('listens from the start: a failed chunk reloads the page once (the event handled), not twice in a row', () => {
    const reload = vi.fn()
    vi.stubGlobal('location', { reload })
    sessionStorage.removeItem(RELOAD_MARKER_KEY)
    recoverFromChunkErrors()
    const failed = () => new Event('vite:preloadError', { cancelable: true })
    const first = failed()
    window.dispatchEvent(first)
    expect(first.defaultPrevented).toBe(true)
    expect(reload).toHaveBeenCalledOnce()
    const second = failed()
    window.dispatchEvent(second)
    expect(second.defaultPrevented).toBe(false)
    expect(reload).toHaveBeenCalledOnce()
    vi.unstubAllGlobals()
  })
})
