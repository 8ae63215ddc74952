import { afterEach, describe, expect, it, vi } from 'vitest'
import { markSignedIn } from '../lib/signed-in-mark.ts'
import { refreshBadge } from './notices.ts'

afterEach(() => {
  vi.unstubAllGlobals()
  markSignedIn(false)
  Reflect.deleteProperty(navigator, 'setAppBadge')
  Reflect.deleteProperty(navigator, 'clearAppBadge')
})

function badging(count: number) {
  const setAppBadge = vi.fn(async () => undefined)
  const clearAppBadge = vi.fn(async () => undefined)
  Object.assign(navigator, { setAppBadge, clearAppBadge })
  const fetch = vi.fn(async (_input: string) => Response.json({ count }))
  vi.stubGlobal('fetch', fetch)
  return { setAppBadge, clearAppBadge, fetch }
}

describe('the app icon’s badge', () => {
  it('shows what waits for a signed-in person, and clears at zero', async () => {
    markSignedIn(true)
    const three = badging(3)
    await refreshBadge()
    expect(String(three.fetch.mock.calls[0]?.[0])).toContain('/api/badge')
    expect(three.setAppBadge).toHaveBeenCalledWith(3)
    const none = badging(0)
    await refreshBadge()
    expect(none.clearAppBadge).toHaveBeenCalledTimes(1)
    expect(none.setAppBadge).not.toHaveBeenCalled()
  })

  it('asks nothing when signed out, or where the browser has no badge', async () => {
    const signedOut = badging(3)
    await refreshBadge()
    expect(signedOut.fetch).not.toHaveBeenCalled()
    markSignedIn(true)
    Reflect.deleteProperty(navigator, 'setAppBadge')
    const fetch = vi.fn(async () => Response.json({ count: 1 }))
    vi.stubGlobal('fetch', fetch)
    await refreshBadge()
    expect(fetch).not.toHaveBeenCalled()
  })
})
