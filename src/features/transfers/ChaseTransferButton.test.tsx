import { act, fireEvent, screen } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { Transfer } from '../../../contract/transfers.ts'
import { transfer } from '../../../tests/offline-rows.ts'
import { renderWithProviders, useLocale } from '../../../tests/render.tsx'
import { toasts } from '../../ui/toast/store.ts'
import { ChaseTransferButton, chaseState } from './ChaseTransferButton.tsx'

const NOW = new Date('2030-01-21T10:00:00.000Z')
const late: Transfer = {
  ...transfer('00000000-0000-4000-8000-0000000000c7', {
    recipient: {
      id: '00000000-0000-4000-8000-0000000000b1',
      email: 'dupont@example.com',
      firstName: 'Léa',
      lastName: 'Dupont',
    },
  }),
  status: 'RETURNING',
  expired: true,
  next: null,
  refusal: null,
}

beforeAll(async () => {
  await useLocale('en')
})
afterEach(() => {
  vi.unstubAllGlobals()
})

function answer(status: number, body: unknown) {
  const fetchMock = vi.fn(
    async (_url: string, _init?: RequestInit) =>
      new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }),
  )
  vi.stubGlobal('fetch', fetchMock)
  return fetchMock
}

describe('chasing an overdue transfer', () => {
  it('is offered for a late keychain only, and not again within the hour of the last chase', () => {
    expect(chaseState(late, NOW)).toBe('ready')
    expect(chaseState({ ...late, expired: false }, NOW)).toBe('hidden')
    expect(chaseState({ ...late, status: 'RETURNED', expired: false }, NOW)).toBe('hidden')
    const chased = (ms: number) => ({ ...late, chasedAt: new Date(NOW.getTime() - ms).toISOString() })
    expect(chaseState(chased(59 * 60 * 1000), NOW)).toBe('recent')
    expect(chaseState(chased(60 * 60 * 1000), NOW)).toBe('ready')
  })

  it('sends the chase and says who was reminded', async () => {
    const fetchMock = answer(200, { ...late, chasedAt: NOW.toISOString() })
    renderWithProviders(<ChaseTransferButton transfer={late} now={NOW} />)
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Chase' }))
    })
    const [url, init] = fetchMock.mock.calls[0]!
    expect(String(url)).toContain(`/api/transfers/${late.id}/chase`)
    expect(init?.method).toBe('POST')
    expect(toasts.getSnapshot().at(-1)).toMatchObject({
      severity: 'success',
      summary: 'A reminder was sent to Léa Dupont.',
    })
  })

  it("shows the server's reason when it refuses", async () => {
    const message = 'A reminder was sent less than an hour ago. You can send another one at 11:00.'
    answer(429, { error: { code: 'chased_recently', message, retryAt: NOW.toISOString() } })
    renderWithProviders(<ChaseTransferButton transfer={late} now={NOW} />)
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Chase' }))
    })
    expect(toasts.getSnapshot().at(-1)).toMatchObject({
      severity: 'error',
      summary: 'The reminder could not be sent.',
      detail: message,
    })
  })

  it('says when the last chase went out instead of offering another', () => {
    renderWithProviders(<ChaseTransferButton transfer={{ ...late, chasedAt: NOW.toISOString() }} now={NOW} />)
    expect(screen.queryByRole('button', { name: 'Chase' })).toBeNull()
    expect(screen.getByText(/^Reminded at \d\d:\d\d/)).toBeTruthy()
  })
})
