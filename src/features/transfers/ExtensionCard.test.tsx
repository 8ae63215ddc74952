import { act, fireEvent, screen } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { Transfer } from '../../../contract/transfers.ts'
import { transfer } from '../../../tests/offline-rows.ts'
import { renderWithProviders, useLocale } from '../../../tests/render.tsx'
import { formatCalendarDate } from '../../lib/format.ts'
import { toasts } from '../../ui/toast/store.ts'
import { type AskForMoreTime, canAskForMoreTime, ExtensionCard } from './ExtensionCard.tsx'
import { TransferActions } from './TransferActions.tsx'

const held: Transfer = {
  ...transfer('00000000-0000-4000-8000-0000000000c9', { toDate: '2030-01-17' }),
  status: 'TRANSFERRED',
  next: null,
  refusal: 'own_return',
}
const pending = (overrides: Partial<NonNullable<Transfer['extension']>> = {}): Transfer => ({
  ...held,
  extension: {
    id: '00000000-0000-4000-8000-0000000000e9',
    status: 'PENDING',
    toDate: '2030-01-20',
    previousToDate: '2030-01-17',
    requestedAt: '2030-01-15T09:00:00.000Z',
    decidedAt: null,
    ...overrides,
  },
})

const day = (date: string) => formatCalendarDate(date, 'en')

beforeAll(async () => {
  await useLocale('en')
})
afterEach(() => {
  vi.unstubAllGlobals()
})

describe('asking for more time', () => {
  it('is offered while the keychain is out or its window is open, never twice at once', () => {
    expect(canAskForMoreTime(held)).toBe(true)
    expect(canAskForMoreTime({ ...held, status: 'RETURNING', expired: true })).toBe(true)
    expect(canAskForMoreTime({ ...held, status: 'SCHEDULED', expired: false })).toBe(true)
    expect(canAskForMoreTime({ ...held, status: 'SCHEDULED', expired: true })).toBe(false)
    expect(canAskForMoreTime({ ...held, status: 'RETURNED' })).toBe(false)
    expect(canAskForMoreTime(pending())).toBe(false)
    expect(canAskForMoreTime(pending({ status: 'REFUSED' }))).toBe(true)
  })

  it('asks for the chosen day, from the day after the to-date, and says when it waits for the network', async () => {
    const ask = vi.fn<AskForMoreTime>(async (asked, toDate) => ({
      transfer: { ...asked, extension: pending({ toDate }).extension },
      queued: true,
    }))
    const onAsked = vi.fn()
    renderWithProviders(<ExtensionCard transfer={held} today="2030-01-15" ask={ask} onAsked={onAsked} />)
    const field = screen.getByLabelText('Keep it until') as HTMLInputElement
    expect(field.min).toBe('2030-01-18')
    expect(field.value).toBe('2030-01-18')
    fireEvent.change(field, { target: { value: '2030-01-21' } })
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Ask for more time' }))
    })
    expect(ask).toHaveBeenCalledWith(held, '2030-01-21')
    expect(onAsked.mock.calls[0]![0].extension).toMatchObject({ status: 'PENDING', toDate: '2030-01-21' })
    expect(toasts.getSnapshot().at(-1)?.summary).toBe(
      'Your request is kept on this device: it will be sent when the network is back.',
    )
  })

  it('does not send a day before the earliest one', async () => {
    const ask = vi.fn<AskForMoreTime>()
    renderWithProviders(
      <ExtensionCard transfer={held} today="2030-01-15" ask={ask} onAsked={() => undefined} />,
    )
    fireEvent.change(screen.getByLabelText('Keep it until'), { target: { value: '2030-01-17' } })
    expect(screen.getByText(`Choose a day from ${day('2030-01-18')}.`)).toBeTruthy()
    expect((screen.getByRole('button', { name: 'Ask for more time' }) as HTMLButtonElement).disabled).toBe(
      true,
    )
  })

  it('shows a pending request instead of the form, and the answer once given', () => {
    const { unmount } = renderWithProviders(
      <ExtensionCard transfer={pending()} today="2030-01-15" ask={vi.fn()} onAsked={() => undefined} />,
    )
    expect(screen.getByText(/waiting for the organization's answer/)).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Ask for more time' })).toBeNull()
    unmount()
    renderWithProviders(
      <ExtensionCard
        transfer={pending({ status: 'REFUSED' })}
        today="2030-01-15"
        ask={vi.fn()}
        onAsked={() => undefined}
      />,
    )
    expect(
      screen.getByText(
        `Your request for more time was refused: the keychain was due back on ${day('2030-01-17')}.`,
      ),
    ).toBeTruthy()
  })
})

describe('answering a request for more time', () => {
  it('approves it through the API for a manager', async () => {
    const fetchMock = vi.fn(
      async (_url: string, _init?: RequestInit) =>
        new Response(JSON.stringify({ ...pending({ status: 'APPROVED' }), toDate: '2030-01-20' }), {
          status: 200,
          headers: { 'Content-Type': 'application/json' },
        }),
    )
    vi.stubGlobal('fetch', fetchMock)
    renderWithProviders(<TransferActions transfer={pending()} canCancel canManage />)
    expect(screen.getByText(`Asks to keep it until ${day('2030-01-20')}`)).toBeTruthy()
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Approve' }))
    })
    const [url, init] = fetchMock.mock.calls[0]!
    expect(String(url)).toContain(`/api/transfers/${held.id}/extensions/${pending().extension!.id}`)
    expect(JSON.parse(String(init?.body))).toEqual({ decision: 'approve' })
  })

  it('offers no answer to someone who does not manage transfers', () => {
    renderWithProviders(<TransferActions transfer={pending()} canCancel={false} canManage={false} />)
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull()
  })
})
