import type { PersistedClient } from '@tanstack/react-query-persist-client'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createFlushablePersister } from './cache-persister.ts'

const KEY = 'test-cache'
const client = (label: string): PersistedClient => ({
  buster: 'v1',
  timestamp: 1,
  clientState: { mutations: [], queries: [{ queryKey: [label] } as never] },
})
const stored = () => localStorage.getItem(KEY)

beforeEach(() => {
  vi.useFakeTimers()
  localStorage.clear()
})

afterEach(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
})

describe('the query cache persister', () => {
  it('writes the latest state once per throttle window', () => {
    const setItem = vi.spyOn(Storage.prototype, 'setItem')
    const persister = createFlushablePersister({ storage: localStorage, key: KEY, throttleMs: 1000 })
    persister.persistClient(client('first'))
    persister.persistClient(client('second'))
    vi.advanceTimersByTime(999)
    expect(stored()).toBeNull()
    vi.advanceTimersByTime(1)
    expect(setItem).toHaveBeenCalledTimes(1)
    expect(persister.restoreClient()).toEqual(client('second'))
  })

  it('writes the pending state at once on flush, and not again when the window ends', () => {
    const setItem = vi.spyOn(Storage.prototype, 'setItem')
    const persister = createFlushablePersister({ storage: localStorage, key: KEY })
    persister.persistClient(client('signed in'))
    persister.flush()
    expect(persister.restoreClient()).toEqual(client('signed in'))
    vi.advanceTimersByTime(5000)
    persister.flush()
    expect(setItem).toHaveBeenCalledTimes(1)
  })

  it('drops a pending write when the client is removed', () => {
    const persister = createFlushablePersister({ storage: localStorage, key: KEY })
    persister.persistClient(client('kept'))
    persister.flush()
    persister.persistClient(client('of the account that left'))
    persister.removeClient()
    vi.advanceTimersByTime(5000)
    persister.flush()
    expect(stored()).toBeNull()
  })

  it('keeps the previous copy when the storage refuses the write', () => {
    const persister = createFlushablePersister({ storage: localStorage, key: KEY })
    persister.persistClient(client('old'))
    persister.flush()
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('full', 'QuotaExceededError')
    })
    persister.persistClient(client('new'))
    persister.flush()
    expect(warn).toHaveBeenCalledOnce()
    expect(persister.restoreClient()).toEqual(client('old'))
  })

  it('restores nothing from an empty storage', () => {
    expect(createFlushablePersister({ storage: localStorage, key: KEY }).restoreClient()).toBeUndefined()
  })
})
