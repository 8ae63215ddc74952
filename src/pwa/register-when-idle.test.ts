import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { IDLE_FALLBACK_MS } from '../lib/idle.ts'
import { registerServiceWorkerWhenIdle } from './register-when-idle.ts'
import { WARM_DEFERRED } from './warm.ts'
import { SW_SCOPE, SW_URL } from './worker.ts'

function setReadyState(state: DocumentReadyState) {
  Object.defineProperty(document, 'readyState', { configurable: true, get: () => state })
}

function fakeServiceWorker() {
  const active = { postMessage: vi.fn() }
  const container = {
    register: vi.fn(async () => ({ active })),
    ready: Promise.resolve({ active }),
  }
  Object.defineProperty(navigator, 'serviceWorker', { configurable: true, value: container })
  return { container, active }
}

/** Lets promise chains run (microtasks only). */
async function settle() {
  for (let turn = 0; turn < 20; turn++) await Promise.resolve()
}

beforeEach(() => {
  vi.useFakeTimers()
  // jsdom has no idle callback: the short-timer branch, unless a test stubs one.
  delete (window as { requestIdleCallback?: unknown }).requestIdleCallback
})

afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
  setReadyState('complete')
  Reflect.deleteProperty(navigator, 'serviceWorker')
  vi.restoreAllMocks()
})

describe('registering the service worker from the prerendered pages', () => {
  it('registers nothing before the load event, then /sw.js once the page is idle', async () => {
    const idle: Array<() => void> = []
    vi.stubGlobal('requestIdleCallback', (callback: () => void) => idle.push(callback))
    vi.stubGlobal('cancelIdleCallback', () => {})
    setReadyState('loading')
    const { container } = fakeServiceWorker()
    registerServiceWorkerWhenIdle()
    await vi.advanceTimersByTimeAsync(10_000)
    expect(container.register).not.toHaveBeenCalled()
    expect(idle).toHaveLength(0)

    setReadyState('complete')
    window.dispatchEvent(new Event('load'))
    expect(container.register).not.toHaveBeenCalled()
    idle.shift()?.()
    expect(container.register).toHaveBeenCalledExactlyOnceWith(SW_URL, { scope: SW_SCOPE })
  })

  it('waits the short fallback where there is no idle callback', async () => {
    setReadyState('complete')
    const { container } = fakeServiceWorker()
    registerServiceWorkerWhenIdle()
    await vi.advanceTimersByTimeAsync(IDLE_FALLBACK_MS - 1)
    expect(container.register).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(1)
    expect(container.register).toHaveBeenCalledOnce()
  })

  it('then asks the active worker to cache the deferred files (it checks the network and save-data itself)', async () => {
    const { container, active } = fakeServiceWorker()
    registerServiceWorkerWhenIdle()
    await settle()
    expect(container.register).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(IDLE_FALLBACK_MS)
    await settle()
    expect(active.postMessage).toHaveBeenCalledExactlyOnceWith({ type: WARM_DEFERRED })
  })

  it('warns when the registration fails, and asks nothing of a worker', async () => {
    const { container, active } = fakeServiceWorker()
    container.register.mockRejectedValueOnce(new Error('refused'))
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    registerServiceWorkerWhenIdle()
    await vi.advanceTimersByTimeAsync(IDLE_FALLBACK_MS)
    await settle()
    expect(warn).toHaveBeenCalledOnce()
    expect(active.postMessage).not.toHaveBeenCalled()
  })

  it('does nothing where there is no service worker', async () => {
    const add = vi.spyOn(window, 'addEventListener')
    registerServiceWorkerWhenIdle()
    await vi.advanceTimersByTimeAsync(IDLE_FALLBACK_MS * 4)
    expect(add).not.toHaveBeenCalled()
  })
})
