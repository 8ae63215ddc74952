import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { Transfer } from '../../../contract/transfers.ts'
import { transfer } from '../../../tests/offline-rows.ts'
import { renderWithProviders, useLocale } from '../../../tests/render.tsx'
import type { ConfirmPickup } from '../../api/transfers.ts'
import { ApiError } from '../../lib/api.ts'
import { TransferPickupCard } from './TransferPickupCard.tsx'

// A SCHEDULED transfer to a recipient known by address only, in its pickup window.
const scheduled = transfer('00000000-0000-4000-8000-0000000000c1', {
  keychain: { id: '00000000-0000-4000-8000-0000000000e1', name: 'Cave du 14', tags: [] },
  recipient: {
    id: '00000000-0000-4000-8000-0000000000b1',
    email: 'dupont@example.com',
    firstName: '',
    lastName: '',
  },
})
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

/** Opens the acceptance (loaded on demand), types the recipient's name and accepts. */
const accept = async (name = 'Jean Dupont') => {
  await waitFor(() =>
    expect(screen.getByRole('button', { name: 'Confirm the pickup' }).hasAttribute('disabled')).toBe(false),
  )
  await press('Confirm the pickup')
  fireEvent.change(await screen.findByLabelText('Your name'), { target: { value: name } })
  await press('Accept and confirm the pickup')
}

describe('pickup confirmation from a scan', () => {
  it('keeps the same Idempotency-Key when the answer was lost, so pressing again counts once', async () => {
    const confirm = vi
      .fn<ConfirmPickup>()
      .mockRejectedValueOnce(new ApiError(0, 'network_error', 'The server could not be reached.'))
      .mockResolvedValueOnce({ transfer: transferred, queued: false })
    renderWithProviders(<TransferPickupCard transfer={scheduled} confirm={confirm} />)
    await accept()
    expect((await screen.findByRole('alert')).textContent).toContain('did not reach the server')
    // The acceptance stays filled in: pressing again sends the same one.
    await press('Accept and confirm the pickup')
    expect(await screen.findByText('Picked up: you now hold this keychain.')).toBeTruthy()
    expect(confirm.mock.calls.map(([, , acceptance]) => acceptance)).toEqual([
      { typedName: 'Jean Dupont' },
      { typedName: 'Jean Dupont' },
    ])
    const calls = confirm.mock.calls.map(([transfer, key]) => [transfer.id, key])
    expect(calls).toHaveLength(2)
    expect(calls[0]![0]).toBe(scheduled.id)
    expect(calls[0]![1]).toMatch(/^[0-9a-f-]{36}$/)
    expect(calls[1]).toEqual(calls[0])
  })

  it('shows the server’s reason when it refuses, and takes a new key for the next try', async () => {
    const refusal = { code: 'pickup_refused', reason: 'cancelled', message: 'This transfer was cancelled.' }
    const confirm = vi.fn<ConfirmPickup>(async () => {
      throw new ApiError(409, refusal.code, refusal.message, refusal)
    })
    renderWithProviders(<TransferPickupCard transfer={scheduled} confirm={confirm} />)
    await accept()
    expect((await screen.findByRole('alert')).textContent).toBe('This transfer was cancelled.')
    await accept()
    const keys = confirm.mock.calls.map(([, key]) => key)
    expect(keys).toHaveLength(2)
    expect(keys[1]).not.toBe(keys[0])
    // After a refusal the card fetches the transfer again; the test ends once that has settled, not under it.
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Confirm the pickup' }).hasAttribute('disabled')).toBe(false),
    )
  })

  it('says when the server cannot use the photo, and keeps the acceptance open to change it', async () => {
    const refusal = { code: 'photo_invalid', message: 'The photo has 5 colour components; it must have 1…' }
    const confirm = vi
      .fn<ConfirmPickup>()
      .mockRejectedValueOnce(new ApiError(400, refusal.code, refusal.message, refusal))
      .mockResolvedValueOnce({ transfer: transferred, queued: false })
    renderWithProviders(<TransferPickupCard transfer={scheduled} confirm={confirm} />)
    await accept()
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The server could not use this photo. Remove it or choose another one, then accept again.',
    )
    // Nothing was stored: the same acceptance (its photo removed) goes again under the same key.
    await press('Accept and confirm the pickup')
    expect(await screen.findByText('Picked up: you now hold this keychain.')).toBeTruthy()
    const [first, second] = confirm.mock.calls.map(([, key]) => key)
    expect(second).toBe(first)
  })

  it('offers nothing to confirm to someone who may not, and says why', () => {
    renderWithProviders(
      <TransferPickupCard
        transfer={{ ...scheduled, next: null, refusal: 'not_recipient' }}
        confirm={vi.fn()}
      />,
    )
    expect(screen.queryByRole('button')).toBeNull()
    expect(screen.getByText('Only the recipient can pick up this keychain.')).toBeTruthy()
  })
})
