import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { IDLE_FALLBACK_MS } from '../lib/idle.ts'
import { startPwaWith } from './lifecycle.ts'
import { WARM_DEFERRED } from './warm.ts'

const registerSW = vi.fn()
const startPwa = () => startPwaWith(registerSW)

function setReadyState(state: DocumentReadyState) {
  Object.defineProperty(document, 'readyState', { configurable: true, get: () => state })
}

const active = { postMessage: vi.fn() }

beforeEach(() => {
  vi.useFakeTimers()
  delete (window as { requestIdleCallback?: unknown }).requestIdleCallback
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: { ready: Promise.resolve({ active }) },
  })
  registerSW.mockReset()
  active.postMessage.mockReset()
})

afterEach(() => {
  vi.clearAllTimers()
  vi.useRealTimers()
  setReadyState('complete')
  Reflect.deleteProperty(navigator, 'serviceWorker')
})

describe('the SPA starting its service worker', () => {
  it('registers it only after the load event and an idle moment, then asks it to cache the rest', async () => {
    setReadyState('loading')
    startPwa()
    await vi.advanceTimersByTimeAsync(10_000)
    expect(registerSW).not.toHaveBeenCalled()

    setReadyState('complete')
    window.dispatchEvent(new Event('load'))
    await vi.advanceTimersByTimeAsync(IDLE_FALLBACK_MS - 1)
    expect(registerSW).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(1)
    expect(registerSW).toHaveBeenCalledOnce()
    const options = registerSW.mock.calls[0]![0] as {
      onRegisteredSW: (url: string, registration: unknown) => void
    }
    expect(active.postMessage).not.toHaveBeenCalled()
    options.onRegisteredSW('/sw.js', { active })
    await vi.advanceTimersByTimeAsync(0)
    expect(active.postMessage).toHaveBeenCalledExactlyOnceWith({ type: WARM_DEFERRED })
  })
})
