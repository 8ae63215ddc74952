import { afterEach, describe, expect, it, vi } from 'vitest'
import { afterLoadWhenIdle, IDLE_FALLBACK_MS } from './idle.ts'

function setReadyState(state: DocumentReadyState) {
  Object.defineProperty(document, 'readyState', { configurable: true, get: () => state })
}

afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
  setReadyState('complete')
})

describe('afterLoadWhenIdle', () => {
  it('waits for the load event, then for the browser to be idle', () => {
    const callbacks: Array<() => void> = []
    vi.stubGlobal('requestIdleCallback', (callback: () => void) => callbacks.push(callback))
    vi.stubGlobal('cancelIdleCallback', () => {})
    setReadyState('loading')
    const task = vi.fn()
    afterLoadWhenIdle(task)
    expect(callbacks).toHaveLength(0)
    window.dispatchEvent(new Event('load'))
    expect(callbacks).toHaveLength(1)
    expect(task).not.toHaveBeenCalled()
    callbacks[0]?.()
    expect(task).toHaveBeenCalledOnce()
  })

  it('falls back to a short timer where there is no idle callback, and can be cancelled', () => {
    vi.useFakeTimers()
    vi.stubGlobal('requestIdleCallback', undefined)
    // jsdom has none: make sure the branch without it is taken.
    delete (window as { requestIdleCallback?: unknown }).requestIdleCallback
    const task = vi.fn()
    afterLoadWhenIdle(task)
    vi.advanceTimersByTime(IDLE_FALLBACK_MS - 1)
    expect(task).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1)
    expect(task).toHaveBeenCalledOnce()

    const cancelled = vi.fn()
    const cancel = afterLoadWhenIdle(cancelled)
    cancel()
    vi.advanceTimersByTime(IDLE_FALLBACK_MS * 10)
    expect(cancelled).not.toHaveBeenCalled()
  })
})
