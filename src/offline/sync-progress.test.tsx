import { act, renderHook } from '@testing-library/react'
import { renderToString } from 'react-dom/server'
import { afterEach, describe, expect, it } from 'vitest'
import { reportSyncProgress, useSyncProgress } from './sync-progress.ts'

/** The full sync's progress, as the app shell reads it: null when none runs. */

afterEach(() => {
  act(() => reportSyncProgress(null))
})

function Shown() {
  const progress = useSyncProgress()
  return <span>{progress === null ? 'none' : `${progress.done}/${progress.total}`}</span>
}

describe('the sync progress', () => {
  it('is null while no full sync runs', () => {
    const { result } = renderHook(() => useSyncProgress())
    expect(result.current).toBeNull()
  })

  it('follows what the sync reports, back to null once it ends', () => {
    const { result } = renderHook(() => useSyncProgress())
    act(() => reportSyncProgress({ done: 100, total: 400 }))
    expect(result.current).toEqual({ done: 100, total: 400 })
    act(() => reportSyncProgress({ done: 400, total: 400 }))
    expect(result.current).toEqual({ done: 400, total: 400 })
    act(() => reportSyncProgress(null))
    expect(result.current).toBeNull()
  })

  it('is read by every component that shows it, also one shown after it was reported', () => {
    const first = renderHook(() => useSyncProgress())
    act(() => reportSyncProgress({ done: 1, total: 2 }))
    const second = renderHook(() => useSyncProgress())
    expect(first.result.current).toEqual({ done: 1, total: 2 })
    expect(second.result.current).toEqual({ done: 1, total: 2 })
  })

  it('is none in the page prerendered on the server, whatever the module holds', () => {
    act(() => reportSyncProgress({ done: 1, total: 2 }))
    expect(renderToString(<Shown />)).toBe('<span>none</span>')
  })

  it('keeps a component gone from re-rendering', () => {
    let renders = 0
    const { unmount } = renderHook(() => {
      renders += 1
      return useSyncProgress()
    })
    const before = renders
    unmount()
    act(() => reportSyncProgress({ done: 3, total: 4 }))
    expect(renders).toBe(before)
  })
})
