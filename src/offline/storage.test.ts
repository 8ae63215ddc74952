import { act, renderHook, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { requestPersistentStorage, useStorageState } from './storage.ts'

/** Persistent storage: asked for once field mode starts, and what the browser granted shown in the sync panel. */

/** A browser whose `navigator.storage` is `storage` (undefined: a browser without the Storage API). */
function browserWith(storage: Partial<StorageManager> | undefined) {
  vi.stubGlobal('navigator', { ...navigator, storage })
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('asking for persistent storage', () => {
  it('answers null, asking nothing, where the browser cannot keep data persistently', async () => {
    browserWith(undefined)
    expect(await requestPersistentStorage()).toBeNull()
    const persisted = vi.fn(async () => false)
    browserWith({ persisted })
    expect(await requestPersistentStorage()).toBeNull()
    expect(persisted).not.toHaveBeenCalled()
  })

  it('does not ask again when the data is already kept persistently', async () => {
    const persist = vi.fn(async () => true)
    browserWith({ persisted: async () => true, persist })
    expect(await requestPersistentStorage()).toBe(true)
    expect(persist).not.toHaveBeenCalled()
  })

  it('asks, and answers what the browser granted', async () => {
    const persist = vi.fn(async () => false)
    browserWith({ persisted: async () => false, persist })
    expect(await requestPersistentStorage()).toBe(false)
    expect(persist).toHaveBeenCalledTimes(1)
    persist.mockResolvedValue(true)
    expect(await requestPersistentStorage()).toBe(true)
  })
})

describe('the storage state shown', () => {
  it('is unknown until the browser answered, then whether the data is kept and the space used and allowed', async () => {
    browserWith({ persisted: async () => true, estimate: async () => ({ usage: 1_200, quota: 50_000 }) })
    const { result } = renderHook(() => useStorageState())
    expect(result.current).toEqual({ persisted: null, usage: null, quota: null })
    await waitFor(() => expect(result.current).toEqual({ persisted: true, usage: 1_200, quota: 50_000 }))
  })

  it('says not kept when the browser has not granted persistence', async () => {
    browserWith({ persisted: async () => false, estimate: async () => ({ usage: 0, quota: 10 }) })
    const { result } = renderHook(() => useStorageState())
    await waitFor(() => expect(result.current).toEqual({ persisted: false, usage: 0, quota: 10 }))
  })

  it('leaves unknown what the browser cannot tell', async () => {
    browserWith({ persisted: async () => false, estimate: async () => ({}) })
    const { result } = renderHook(() => useStorageState())
    await waitFor(() => expect(result.current.persisted).toBe(false))
    expect(result.current).toEqual({ persisted: false, usage: null, quota: null })

    browserWith({ estimate: async () => ({ usage: 5, quota: 9 }) })
    const second = renderHook(() => useStorageState())
    await waitFor(() => expect(second.result.current.usage).toBe(5))
    expect(second.result.current).toEqual({ persisted: null, usage: 5, quota: 9 })

    browserWith({ persisted: async () => true })
    const third = renderHook(() => useStorageState())
    await waitFor(() => expect(third.result.current.persisted).toBe(true))
    expect(third.result.current).toEqual({ persisted: true, usage: null, quota: null })
  })

  it('is unknown where the browser has no Storage API', async () => {
    browserWith(undefined)
    const { result } = renderHook(() => useStorageState())
    await act(async () => {})
    expect(result.current).toEqual({ persisted: null, usage: null, quota: null })
  })
})
