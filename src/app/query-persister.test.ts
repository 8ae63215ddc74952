import type { PersistedClient } from '@tanstack/react-query-persist-client'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createFlushablePersister } from './query-persister.ts'

const KEY = 'test-cache'
const client = (label: string): PersistedClient => ({
  buster: 'v1',
  timestamp: 1,
  clientState: { mutations: [], queries: [{ queryKey: [label] } as never] },
})
const stored = () => JSON.parse(localStorage.getItem(KEY) ?? 'null') as PersistedClient | null

beforeEach(() => {
  vi.useFakeTimers()
  localStorage.clear()
})

afterEach(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
})

describe('the query cache persister', () => {
  it('writes through the library at most once per throttle window, the latest state last', async () => {
    const setItem = vi.spyOn(Storage.prototype, 'setItem')
    const persister = createFlushablePersister({ storage: localStorage, key: KEY, throttleMs: 1000 })
    void persister.persistClient(client('first'))
    await vi.advanceTimersByTimeAsync(0)
    expect(stored()).toEqual(client('first'))
    void persister.persistClient(client('second'))
    void persister.persistClient(client('third'))
    await vi.advanceTimersByTimeAsync(500)
    expect(stored()).toEqual(client('first'))
    await vi.advanceTimersByTimeAsync(1000)
    expect(stored()).toEqual(client('third'))
    expect(setItem).toHaveBeenCalledTimes(2)
    expect(await persister.restoreClient()).toEqual(client('third'))
  })

  it('writes the pending state at once on flush, and not again on a second flush', async () => {
    const persister = createFlushablePersister({ storage: localStorage, key: KEY })
    void persister.persistClient(client('before'))
    await vi.advanceTimersByTimeAsync(0)
    void persister.persistClient(client('signed in'))
    const setItem = vi.spyOn(Storage.prototype, 'setItem')
    persister.flush()
    expect(stored()).toEqual(client('signed in'))
    persister.flush()
    expect(setItem).toHaveBeenCalledTimes(1)
  })

  it('drops a write still pending when the client is removed', async () => {
    const persister = createFlushablePersister({ storage: localStorage, key: KEY })
    void persister.persistClient(client('kept'))
    await vi.advanceTimersByTimeAsync(0)
    void persister.persistClient(client('of the account that left'))
    await persister.removeClient()
    await vi.advanceTimersByTimeAsync(5000)
    persister.flush()
    expect(localStorage.getItem(KEY)).toBeNull()
    // The next account's state is written again.
    void persister.persistClient(client('next account'))
    await vi.advanceTimersByTimeAsync(5000)
    expect(stored()).toEqual(client('next account'))
  })

  it('keeps the previous copy when the storage refuses the write', async () => {
    const persister = createFlushablePersister({ storage: localStorage, key: KEY })
    void persister.persistClient(client('old'))
    await vi.advanceTimersByTimeAsync(0)
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('full', 'QuotaExceededError')
    })
    void persister.persistClient(client('new'))
    persister.flush()
    expect(warn).toHaveBeenCalledOnce()
    expect(stored()).toEqual(client('old'))
  })

  it('restores nothing from an empty storage', async () => {
    expect(
      await createFlushablePersister({ storage: localStorage, key: KEY }).restoreClient(),
    ).toBeUndefined()
  })
})
