import { fireEvent, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderWithProviders, useLocale } from '../../../tests/render.tsx'
import PushOffer from './PushOffer.tsx'
import { PUSH_OFFER_DISMISSED, shouldOfferPush } from './push-offer-check.ts'

afterEach(() => {
  vi.unstubAllGlobals()
  localStorage.clear()
})

function pushCapableBrowser(permission: NotificationPermission) {
  const requestPermission = vi.fn(async () => 'denied' as const)
  vi.stubGlobal('Notification', { permission, requestPermission })
  vi.stubGlobal('PushManager', class {})
  Object.defineProperty(navigator, 'serviceWorker', { value: {}, configurable: true })
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => Response.json({ publicKey: `B${'A'.repeat(86)}`, data: [] })),
  )
  return requestPermission
}

describe('the offer of push after a pickup', () => {
  it('is made only where push works, nobody answered the browser’s question, and it was not turned down', () => {
    expect(shouldOfferPush()).toBe(false)
    pushCapableBrowser('default')
    expect(shouldOfferPush()).toBe(true)
    localStorage.setItem(PUSH_OFFER_DISMISSED, 'dismissed')
    expect(shouldOfferPush()).toBe(false)
    localStorage.clear()
    pushCapableBrowser('granted')
    expect(shouldOfferPush()).toBe(false)
    Reflect.deleteProperty(navigator, 'serviceWorker')
  })

  it('asks the browser only after the tap, and remembers "not now"', async () => {
    await useLocale('en')
    const requestPermission = pushCapableBrowser('default')
    const { unmount } = renderWithProviders(<PushOffer />)
    const turnOn = await screen.findByRole('button', { name: 'Turn on notifications' })
    await vi.waitFor(() => expect((turnOn as HTMLButtonElement).disabled).toBe(false))
    expect(requestPermission).not.toHaveBeenCalled()
    fireEvent.click(turnOn)
    expect(await screen.findByText('Notifications stay off: you are told by e-mail.')).toBeDefined()
    expect(requestPermission).toHaveBeenCalledTimes(1)
    unmount()

    renderWithProviders(<PushOffer />)
    fireEvent.click(await screen.findByRole('button', { name: 'Not now' }))
    expect(screen.queryByRole('button', { name: 'Turn on notifications' })).toBeNull()
    expect(localStorage.getItem(PUSH_OFFER_DISMISSED)).toBe('dismissed')
    Reflect.deleteProperty(navigator, 'serviceWorker')
  })
})
