import { act, fireEvent, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Device } from '../../../contract/devices.ts'
import { renderWithProviders, useLocale } from '../../../tests/render.tsx'
import DevicesCard from './DevicesCard.tsx'

vi.mock('../../offline/device-key.ts', () => ({ forgetRevokedDevice: vi.fn(async () => undefined) }))

afterEach(() => {
  vi.unstubAllGlobals()
})

const device = (id: string, overrides: Partial<Device> = {}): Device => ({
  id,
  name: 'Chrome on Android',
  fingerprint: 'ABCD1234',
  registeredAt: '2030-01-10T09:00:00.000Z',
  expiresAt: '2099-07-09T09:00:00.000Z',
  revokedAt: null,
  lastHandoverAt: null,
  ...overrides,
})
const PHONE = device('11111111-1111-4111-8111-111111111111')
const TABLET = device('22222222-2222-4222-8222-222222222222', {
  name: 'Safari on iPad',
  fingerprint: 'WXYZ5678',
})
const OLD = device('33333333-3333-4333-8333-333333333333', {
  name: 'Firefox on Linux',
  revokedAt: '2030-02-01T09:00:00.000Z',
})

function server() {
  const sent: string[] = []
  let devices = [PHONE, TABLET, OLD]
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const path = new URL(String(input), 'http://app.test').pathname
      const method = init?.method ?? 'GET'
      sent.push(`${method} ${path}`)
      if (method === 'DELETE') {
        devices = devices.map((each) =>
          path.endsWith(each.id) ? { ...each, revokedAt: '2030-03-01T09:00:00.000Z' } : each,
        )
        return new Response(null, { status: 204 })
      }
      return Response.json({ data: devices })
    }),
  )
  return sent
}

const row = (name: string) => screen.getByText(name).closest('li') as HTMLElement

describe('my devices', () => {
  it('lists each device with its fingerprint and dates, marks this one, and revokes one after asking', async () => {
    await useLocale('en')
    const sent = server()
    renderWithProviders(<DevicesCard userId="u1" thisDevice={async () => PHONE.id} />)
    await screen.findByText('Safari on iPad')
    await vi.waitFor(() => expect(within(row('Chrome on Android')).queryByText('This device')).toBeTruthy())
    expect(within(row('Safari on iPad')).queryByText('This device')).toBeNull()
    expect(within(row('Safari on iPad')).getByText('WXYZ5678')).toBeTruthy()
    expect(row('Safari on iPad').textContent).toContain('Registered 10 Jan 2030')
    expect(row('Safari on iPad').textContent).toContain('expires 9 Jul 2099')
    expect(row('Firefox on Linux').textContent).toContain('revoked 1 Feb 2030')
    expect(within(row('Firefox on Linux')).queryByRole('button', { name: 'Revoke' })).toBeNull()

    await act(async () => {
      fireEvent.click(within(row('Safari on iPad')).getByRole('button', { name: 'Revoke' }))
    })
    const dialog = await screen.findByRole('alertdialog', {}, { timeout: 20_000 })
    expect(within(dialog).getByRole('heading', { name: 'Revoke this device?' })).toBeTruthy()
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Revoke' }))
    })
    await vi.waitFor(() => expect(within(row('Safari on iPad')).queryByText('Revoked')).toBeTruthy())
    expect(sent).toContain(`DELETE /api/devices/${TABLET.id}`)
  }, 30_000)

  it('in French, says a device is this one and when none is registered yet', async () => {
    await useLocale('fr')
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ data: [] })),
    )
    renderWithProviders(<DevicesCard userId="u1" thisDevice={async () => PHONE.id} />)
    expect(
      await screen.findByText(
        "Aucun appareil enregistré pour l'instant : chacun s'enregistre la première fois qu'il est en ligne.",
      ),
    ).toBeTruthy()
    expect(screen.getByRole('heading', { name: 'Mes appareils' })).toBeTruthy()
  })
})
