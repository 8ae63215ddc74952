import { describe, expect, it, vi } from 'vitest'
import { RELOAD_MARKER_KEY, reloadAfterChunkError } from './reload.ts'

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
})
