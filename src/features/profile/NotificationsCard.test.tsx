import { fireEvent, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderWithProviders, useLocale } from '../../../tests/render.tsx'
import NotificationsCard from './NotificationsCard.tsx'

afterEach(() => {
  vi.unstubAllGlobals()
})

const PHONE = {
  id: '11111111-1111-4111-8111-111111111111',
  name: 'Android Chrome',
  service: 'fcm.googleapis.com',
  createdAt: '2030-01-10T09:00:00.000Z',
  seenAt: '2030-01-12T09:00:00.000Z',
}

/** The API as the card reads it: settings, devices; what it was sent. */
function server() {
  const sent: Array<{ request: string; body?: unknown }> = []
  let devices = [PHONE]
  let digest = false
  let channels: Record<string, string> = {
    transfer_authorized: 'BOTH',
    reminder: 'BOTH',
    extension_answered: 'BOTH',
    lent_overdue: 'BOTH',
    found_report: 'BOTH',
    stocktake_due: 'BOTH',
    handover: 'PUSH',
    member_left: 'BOTH',
  }
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const path = new URL(String(input), 'http://app.test').pathname
      const method = init?.method ?? 'GET'
      const body = init?.body ? JSON.parse(String(init.body)) : undefined
      sent.push({ request: `${method} ${path}`, body })
      if (path.endsWith('/notice-settings')) {
        if (method === 'PUT') {
          channels = { ...channels, ...body.channels }
          digest = body.digest ?? digest
        }
        return Response.json({ digest, channels })
      }
      if (method === 'DELETE') {
        devices = devices.filter((each) => !path.endsWith(each.id))
        return new Response(null, { status: 204 })
      }
      return Response.json({ publicKey: `B${'A'.repeat(86)}`, data: devices })
    }),
  )
  return sent
}

describe('notifications in the profile', () => {
  it('shows each kind’s channel and saves a change at once', async () => {
    await useLocale('en')
    const sent = server()
    renderWithProviders(<NotificationsCard support="unsupported" />)
    const reminders = await screen.findByLabelText('Pickups and returns due (reminders, overdue)')
    expect((reminders as HTMLSelectElement).value).toBe('BOTH')
    expect((screen.getByLabelText('Handovers from phone to phone') as HTMLSelectElement).value).toBe('PUSH')
    fireEvent.change(reminders, { target: { value: 'EMAIL' } })
    await vi.waitFor(() =>
      expect(sent).toContainEqual({
        request: 'PUT /api/notice-settings',
        body: { channels: { reminder: 'EMAIL' } },
      }),
    )
    await vi.waitFor(() => expect((reminders as HTMLSelectElement).value).toBe('EMAIL'))

    const daily = screen.getByRole('checkbox', { name: /One e-mail a day/ }) as HTMLInputElement
    expect(daily.checked).toBe(false)
    fireEvent.click(daily)
    await vi.waitFor(() =>
      expect(sent).toContainEqual({ request: 'PUT /api/notice-settings', body: { digest: true } }),
    )
    await vi.waitFor(() => expect(daily.checked).toBe(true))
  })

  it('lists the devices that receive notifications and removes one', async () => {
    await useLocale('en')
    const sent = server()
    renderWithProviders(<NotificationsCard support="unsupported" />)
    const list = await screen.findByRole('list', { name: 'Devices receiving notifications' })
    expect(within(list).getByText('Android Chrome')).toBeDefined()
    fireEvent.click(within(list).getByRole('button', { name: 'Remove' }))
    await vi.waitFor(() =>
      expect(sent.map((each) => each.request)).toContain(`DELETE /api/push-subscriptions/${PHONE.id}`),
    )
    await vi.waitFor(() =>
      expect(screen.queryByRole('list', { name: 'Devices receiving notifications' })).toBeNull(),
    )
  })

  it('tells an iPhone user to install the app first, and a browser without push that mail goes on', async () => {
    await useLocale('en')
    server()
    const { unmount } = renderWithProviders(<NotificationsCard support="install-first" />)
    expect(
      await screen.findByText(/notifications reach the app installed on the home screen only/),
    ).toBeDefined()
    expect(screen.queryByRole('button', { name: 'Turn on notifications on this device' })).toBeNull()
    unmount()
    renderWithProviders(<NotificationsCard support="unsupported" />)
    expect(
      await screen.findByText('This browser cannot receive notifications; you are told by e-mail.'),
    ).toBeDefined()
  })

  it('asks for the permission only when the button is tapped', async () => {
    await useLocale('en')
    server()
    const requestPermission = vi.fn(async () => 'denied' as const)
    vi.stubGlobal('Notification', { permission: 'default', requestPermission })
    renderWithProviders(<NotificationsCard support="supported" />)
    const button = await screen.findByRole('button', { name: 'Turn on notifications on this device' })
    await vi.waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false))
    expect(requestPermission).not.toHaveBeenCalled()
    fireEvent.click(button)
    await vi.waitFor(() => expect(requestPermission).toHaveBeenCalledTimes(1))
    expect(
      await screen.findByText('Notifications are blocked for Trousseau in this browser’s settings.'),
    ).toBeDefined()
  })
})
