import { act, renderHook } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

/**
 * What the app knows of the network: a request that reached the server says online, one that did not (or the
 * browser's "offline") says offline; the time of the last reach is kept on the device.
 */

const KEY = 'trousseau-last-reached'
const T0 = new Date('2026-11-22T10:00:00.000Z')

/** A fresh copy of the module (its state is made when it loads), with the API client it listens to. */
async function load(setup: { online?: boolean; lastReachedAt?: string } = {}) {
  vi.resetModules()
  if (setup.lastReachedAt) localStorage.setItem(KEY, setup.lastReachedAt)
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(setup.online ?? true)
  // A fresh module each time (its state starts from the setup): named one by one, so that knip sees them used.
  const { connectivity, subscribeConnectivity, useConnectivity } = await import('./connectivity.ts')
  const { api } = await import('../lib/api.ts')
  return { connectivity, subscribeConnectivity, useConnectivity, api }
}

type Api = Awaited<ReturnType<typeof load>>['api']

/** The app says online or not, and knows the last reach: the time kept on the device too. */
function expectKnown(
  connectivity: Awaited<ReturnType<typeof load>>['connectivity'],
  online: boolean,
  lastReachedAt: string,
) {
  expect(connectivity()).toEqual({ online, lastReachedAt })
  expect(localStorage.getItem(KEY)).toBe(lastReachedAt)
}

/** A request the server answers. */
async function reach(api: Api) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(null, { status: 204 })),
  )
  await api('/health')
}

/** A request that never reaches the server. */
async function miss(api: Api) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => {
      throw new TypeError('Failed to fetch')
    }),
  )
  await expect(api('/health')).rejects.toMatchObject({ status: 0 })
}

const at = (ms: number) => vi.setSystemTime(T0.getTime() + ms)

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(T0)
})

afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
  localStorage.clear()
})

describe('connectivity at start', () => {
  it('starts from the browser’s word on the network and the last reach kept on the device', async () => {
    const { connectivity } = await load({ online: false, lastReachedAt: '2026-11-20T08:00:00.000Z' })
    expect(connectivity()).toEqual({ online: false, lastReachedAt: '2026-11-20T08:00:00.000Z' })
  })

  it('starts online with no last reach on a device that never reached the server', async () => {
    const { connectivity } = await load({ online: true })
    expect(connectivity()).toEqual({ online: true, lastReachedAt: null })
  })

  it('starts online with no last reach where there is no browser (prerendering)', async () => {
    vi.resetModules()
    vi.stubGlobal('navigator', undefined)
    vi.stubGlobal('localStorage', undefined)
    vi.stubGlobal('window', undefined)
    const { connectivity } = await import('./connectivity.ts')
    vi.unstubAllGlobals()
    expect(connectivity()).toEqual({ online: true, lastReachedAt: null })
  })
})

describe('connectivity from requests', () => {
  it('goes online when a request reaches the server, and keeps the time of it on the device', async () => {
    const { connectivity, api } = await load({ online: false })
    await reach(api)
    expectKnown(connectivity, true, T0.toISOString())
  })

  it('goes offline when a request does not reach the server, keeping the time of the last reach', async () => {
    const { connectivity, api } = await load({ online: true })
    await reach(api)
    at(5_000)
    await miss(api)
    expectKnown(connectivity, false, T0.toISOString())
  })

  it('refreshes the time of the last reach at most every 30 seconds while online', async () => {
    const { connectivity, api } = await load({ online: true })
    await reach(api)
    at(29_999)
    await reach(api)
    expect(connectivity().lastReachedAt).toBe(T0.toISOString())
    expect(localStorage.getItem(KEY)).toBe(T0.toISOString())
    at(30_000)
    await reach(api)
    const later = new Date(T0.getTime() + 30_000).toISOString()
    expectKnown(connectivity, true, later)
  })

  it('keeps a last reach read from the device for 30 seconds too', async () => {
    const { connectivity, api } = await load({ online: true, lastReachedAt: T0.toISOString() })
    at(10_000)
    await reach(api)
    expect(connectivity().lastReachedAt).toBe(T0.toISOString())
  })

  it('comes back online at the first reach after being offline, however recent the last one', async () => {
    const { connectivity, api } = await load({ online: true })
    await reach(api)
    at(1_000)
    await miss(api)
    at(2_000)
    await reach(api)
    expect(connectivity()).toEqual({
      online: true,
      lastReachedAt: new Date(T0.getTime() + 2_000).toISOString(),
    })
  })

  it('goes offline when the browser says it has no network', async () => {
    const { connectivity, api } = await load({ online: true })
    await reach(api)
    window.dispatchEvent(new Event('offline'))
    expect(connectivity()).toEqual({ online: false, lastReachedAt: T0.toISOString() })
  })

  it('takes the browser’s "online" as a hint only: still offline until a request reaches the server', async () => {
    const { connectivity } = await load({ online: false })
    window.dispatchEvent(new Event('online'))
    expect(connectivity().online).toBe(false)
  })
})

describe('listening to connectivity', () => {
  it('tells listeners of each change, once, and no more once they stopped listening', async () => {
    const { subscribeConnectivity, api } = await load({ online: true })
    const listener = vi.fn()
    const stop = subscribeConnectivity(listener)
    await reach(api)
    expect(listener).toHaveBeenCalledTimes(1)
    at(1_000)
    await reach(api) // nothing changed
    window.dispatchEvent(new Event('offline'))
    expect(listener).toHaveBeenCalledTimes(2)
    window.dispatchEvent(new Event('offline')) // still offline: nothing changed
    await miss(api)
    expect(listener).toHaveBeenCalledTimes(2)
    stop()
    at(2_000)
    await reach(api)
    expect(listener).toHaveBeenCalledTimes(2)
  })

  it('keeps the same picture while nothing changed, a new one when something did', async () => {
    const { connectivity, api } = await load({ online: true })
    const before = connectivity()
    window.dispatchEvent(new Event('online'))
    expect(connectivity()).toBe(before)
    await reach(api)
    expect(connectivity()).not.toBe(before)
  })

  it('re-renders a component with connectivity as it changes', async () => {
    const { useConnectivity, api } = await load({ online: false })
    const { result } = renderHook(() => useConnectivity())
    expect(result.current).toEqual({ online: false, lastReachedAt: null })
    await act(() => reach(api))
    expect(result.current).toEqual({ online: true, lastReachedAt: T0.toISOString() })
    act(() => {
      window.dispatchEvent(new Event('offline'))
    })
    expect(result.current).toEqual({ online: false, lastReachedAt: T0.toISOString() })
  })
})
