import { act, fireEvent, screen } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { Transfer } from '../../../contract/transfers.ts'
import { renderWithProviders, useLocale } from '../../../tests/render.tsx'
import { TransferPickupCard } from './TransferPickupCard.tsx'

const person = {
  id: '00000000-0000-4000-8000-0000000000b1',
  email: 'dupont@example.com',
  firstName: '',
  lastName: '',
}
const scheduled: Transfer = {
  id: '00000000-0000-4000-8000-0000000000c1',
  organizationId: '00000000-0000-4000-8000-0000000000d1',
  organizationName: 'Syndic des Archives',
  keychain: { id: '00000000-0000-4000-8000-0000000000e1', name: 'Cave du 14', tags: [] },
  recipient: person,
  authorizedBy: null,
  fromDate: '2026-11-22',
  toDate: '2026-11-24',
  startsAt: '2026-11-21T23:00:00.000Z',
  endsAt: '2026-11-23T23:00:00.000Z',
  status: 'SCHEDULED',
  expired: false,
  expiresAt: '2026-11-23T23:00:00.000Z',
  pickupAddress: {
    line1: '14 rue des Archives',
    line2: '',
    city: 'Paris',
    postalCode: '75004',
    country: 'FR',
  },
  pickups: [],
  next: 'PICKUP',
  refusal: null,
  createdAt: '2026-11-22T08:00:00.000Z',
  cancelledAt: null,
}
const transferred: Transfer = { ...scheduled, status: 'TRANSFERRED', next: null, refusal: 'not_member' }

beforeAll(async () => {
  await useLocale('en')
})

afterEach(() => {
  vi.unstubAllGlobals()
})

const press = async (name: string) => {
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name }))
  })
}

describe('pickup confirmation from a scan', () => {
  it('keeps the same Idempotency-Key when the answer was lost, so pressing again counts once', async () => {
    const fetchMock = vi
      .fn()
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockResolvedValueOnce(
        new Response(JSON.stringify(transferred), {
          status: 201,
          headers: { 'Content-Type': 'application/json' },
        }),
      )
    vi.stubGlobal('fetch', fetchMock)
    renderWithProviders(<TransferPickupCard transfer={scheduled} />)
    await press('Confirm the pickup')
    expect((await screen.findByRole('alert')).textContent).toContain('did not reach the server')
    await press('Confirm the pickup')
    expect(await screen.findByText('Picked up: you now hold this keychain.')).toBeTruthy()
    const keys = fetchMock.mock.calls.map(
      ([, init]) => (init as RequestInit & { headers: Record<string, string> }).headers['Idempotency-Key'],
    )
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/)
    expect(keys[1]).toBe(keys[0])
    expect(fetchMock.mock.calls[0]![0]).toBe(`/api/transfers/${scheduled.id}/pickups`)
  })

  it('shows the server’s reason when it refuses, and takes a new key for the next try', async () => {
    const refusal = {
      error: { code: 'pickup_refused', reason: 'cancelled', message: 'This transfer was cancelled.' },
    }
    const fetchMock = vi.fn(
      async () =>
        new Response(JSON.stringify(refusal), {
          status: 409,
          headers: { 'Content-Type': 'application/json' },
        }),
    )
    vi.stubGlobal('fetch', fetchMock)
    renderWithProviders(<TransferPickupCard transfer={scheduled} />)
    await press('Confirm the pickup')
    expect((await screen.findByRole('alert')).textContent).toBe('This transfer was cancelled.')
    await press('Confirm the pickup')
    const keys = fetchMock.mock.calls.map(
      (call) =>
        ((call as unknown as [string, RequestInit])[1].headers as Record<string, string>)['Idempotency-Key'],
    )
    expect(keys[1]).not.toBe(keys[0])
  })

  it('offers nothing to confirm to someone who may not, and says why', () => {
    renderWithProviders(
      <TransferPickupCard transfer={{ ...scheduled, next: null, refusal: 'not_recipient' }} />,
    )
    expect(screen.queryByRole('button')).toBeNull()
    expect(screen.getByText('Only the recipient can pick up this keychain.')).toBeTruthy()
  })
})
