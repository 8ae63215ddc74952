import { act, renderHook, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { IDLE_FALLBACK_MS } from '../lib/idle.ts'
import type { OutboxItem } from './db.ts'
import { watchOutbox } from './live.ts'
import { useOutbox } from './useOutbox.ts'

/** The user's outbox in a component: unknown until first read, then as it changes, for the user shown. */

vi.mock('./live.ts', () => ({ watchOutbox: vi.fn() }))

type Watcher = { userId: string; next: (items: OutboxItem[]) => void; stop: ReturnType<typeof vi.fn> }

/** Each watch started, with the way to feed it and its stop. */
function watchers(): Watcher[] {
  const started: Watcher[] = []
  vi.mocked(watchOutbox).mockImplementation((userId, next) => {
    const stop = vi.fn()
    started.push({ userId, next, stop })
    return stop
  })
  return started
}

const item = (id: string, userId: string) => ({ id, userId }) as OutboxItem

afterEach(() => {
  vi.mocked(watchOutbox).mockReset()
})

describe('useOutbox', () => {
  it('opens the outbox only once the page has loaded and is idle', async () => {
    const started = watchers()
    vi.useFakeTimers()
    Object.defineProperty(document, 'readyState', { configurable: true, get: () => 'loading' })
    try {
      renderHook(() => useOutbox('user-1'))
      await vi.advanceTimersByTimeAsync(10_000)
      expect(started).toHaveLength(0)
      Object.defineProperty(document, 'readyState', { configurable: true, get: () => 'complete' })
      window.dispatchEvent(new Event('load'))
      await vi.advanceTimersByTimeAsync(IDLE_FALLBACK_MS)
      expect(started).toHaveLength(1)
    } finally {
      Object.defineProperty(document, 'readyState', { configurable: true, get: () => 'complete' })
      vi.useRealTimers()
    }
  })

  it('leaves nothing pending once gone: no idle start, and no watch when the import lands after', async () => {
    const started = watchers()
    vi.useFakeTimers()
    try {
      const early = renderHook(() => useOutbox('user-1'))
      early.unmount()
      expect(vi.getTimerCount()).toBe(0)

      const late = renderHook(() => useOutbox('user-2'))
      vi.advanceTimersByTime(IDLE_FALLBACK_MS) // the import starts, and has not landed yet
      late.unmount()
      await vi.advanceTimersByTimeAsync(IDLE_FALLBACK_MS)
      expect(started).toHaveLength(0)
    } finally {
      vi.useRealTimers()
    }
  })

  it('is null until the outbox was first read, then the user’s items as they change', async () => {
    const started = watchers()
    const { result } = renderHook(() => useOutbox('user-1'))
    expect(result.current).toBeNull()
    await waitFor(() => expect(started).toHaveLength(1))
    expect(started[0]!.userId).toBe('user-1')
    expect(result.current).toBeNull()
    act(() => started[0]!.next([item('a', 'user-1')]))
    expect(result.current).toEqual([item('a', 'user-1')])
    act(() => started[0]!.next([item('a', 'user-1'), item('b', 'user-1')]))
    expect(result.current?.map((each) => each.id)).toEqual(['a', 'b'])
  })

  it('stops watching once the component is gone', async () => {
    const started = watchers()
    const { unmount } = renderHook(() => useOutbox('user-1'))
    await waitFor(() => expect(started).toHaveLength(1))
    expect(started[0]!.stop).not.toHaveBeenCalled()
    unmount()
    expect(started[0]!.stop).toHaveBeenCalledTimes(1)
  })

  it('never starts watching for a component gone before the outbox code loaded', async () => {
    const started = watchers()
    const { unmount } = renderHook(() => useOutbox('user-1'))
    expect(() => unmount()).not.toThrow()
    await act(async () => {
      await import('./live.ts')
    })
    expect(started).toHaveLength(0)
  })

  it('watches the other user’s outbox when the user changes, and stops watching the first', async () => {
    const started = watchers()
    const { result, rerender } = renderHook(({ userId }) => useOutbox(userId), {
      initialProps: { userId: 'user-1' },
    })
    await waitFor(() => expect(started).toHaveLength(1))
    rerender({ userId: 'user-1' })
    rerender({ userId: 'user-2' })
    await waitFor(() => expect(started).toHaveLength(2))
    expect(started[0]!.stop).toHaveBeenCalledTimes(1)
    expect(started[1]!.userId).toBe('user-2')
    act(() => started[1]!.next([item('c', 'user-2')]))
    expect(result.current).toEqual([item('c', 'user-2')])
  })
})
