import { beforeEach, describe, expect, it } from 'vitest'
import { clearClientData, createQueryClient, persistCache } from './query.ts'

const CACHE_KEY = 'trousseau-query-cache'
const stored = () => localStorage.getItem(CACHE_KEY) ?? ''

beforeEach(() => localStorage.clear())

describe('the persisted query cache', () => {
  it('is written when the page is left, without waiting for the throttle', async () => {
    const queryClient = createQueryClient()
    await persistCache(queryClient)
    queryClient.setQueryData(['profile'], { id: 'signed-in-a-moment-ago' })
    expect(stored()).not.toContain('signed-in-a-moment-ago')
    window.dispatchEvent(new Event('pagehide'))
    expect(stored()).toContain('signed-in-a-moment-ago')

    const reopened = createQueryClient()
    await persistCache(reopened)
    expect(reopened.getQueryData(['profile'])).toEqual({ id: 'signed-in-a-moment-ago' })
  })

  it('is written when the app goes to the background', async () => {
    const queryClient = createQueryClient()
    await persistCache(queryClient)
    queryClient.setQueryData(['profile'], { id: 'backgrounded' })
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true })
    document.dispatchEvent(new Event('visibilitychange'))
    Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true })
    expect(stored()).toContain('backgrounded')
  })

  it('keeps nothing of an account that signed out, even what was about to be written', async () => {
    const queryClient = createQueryClient()
    await persistCache(queryClient)
    queryClient.setQueryData(['keychains'], ['Cave Nord'])
    window.dispatchEvent(new Event('pagehide'))
    queryClient.setQueryData(['keychains'], ['Cave Nord', 'Cave Sud'])
    clearClientData(queryClient)
    window.dispatchEvent(new Event('pagehide'))
    expect(stored()).not.toContain('Cave')
  })
})
