import { act, fireEvent, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Handover } from '../../../contract/handover.ts'
import {
  fakeActions,
  GIVER,
  handover,
  KEYCHAIN,
  ORGANIZATION,
  RECEIVER,
} from '../../../tests/handover-screens.ts'
import { renderWithRouter, useLocale } from '../../../tests/render.tsx'
import type { HandoverActions } from './actions.ts'
import { HandoverListScreen } from './HandoverListScreen.tsx'

afterEach(() => {
  vi.unstubAllGlobals()
})

const recorded = (id: string, overrides: Partial<Handover> = {}): Handover => ({
  id,
  status: 'APPLIED',
  reason: null,
  keychain: KEYCHAIN,
  giver: GIVER,
  receiver: RECEIVER,
  giverDeviceId: 'd1',
  receiverDeviceId: 'd2',
  offeredAt: '2030-03-04T08:30:00.000Z',
  acceptedAt: '2030-03-04T08:31:00.000Z',
  receivedAt: '2030-03-04T09:00:00.000Z',
  sentBy: RECEIVER,
  ...overrides,
})
const APPLIED = recorded('a'.repeat(43))
const REFUSED = recorded('b'.repeat(43), {
  status: 'REFUSED',
  reason: 'conflict',
  keychain: { id: 'k2', name: 'Local vélos' },
})

/** The server's list (the status filter applied as the server does), or no network. */
function server(offline = false) {
  const asked: string[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      if (offline) throw new TypeError('Failed to fetch')
      const url = new URL(String(input), 'http://app.test')
      asked.push(`${url.pathname}${url.search}`)
      const status = url.searchParams.get('status')
      return Response.json({
        data: [APPLIED, REFUSED].filter((each) => !status || each.status === status),
        nextCursor: null,
      })
    }),
  )
  return asked
}

const open = (actions: HandoverActions, everyone = true) =>
  renderWithRouter(
    <HandoverListScreen
      userId={GIVER.id}
      organizationId={ORGANIZATION}
      everyone={everyone}
      actions={actions}
    />,
  )

const rows = () =>
  within(screen.getByRole('list'))
    .getAllByRole('listitem')
    .map((row) => [row.querySelector('a')?.textContent, row.getAttribute('data-handover-state')])

describe('the handovers list', () => {
  it('shows a manager every handover, this phone’s unsent ones first, refused ones with what to do', async () => {
    await useLocale('en')
    const asked = server()
    const unsent = handover({ offerId: 'c'.repeat(43), keychain: { id: 'k3', name: 'Loge' } })
    // The server's applied one is kept here too: it shows once, as the server has it.
    const sent = handover({ offerId: APPLIED.id, state: 'queued' })
    await open(fakeActions({ localHandovers: vi.fn(async () => [unsent, sent]) }))
    await screen.findByText('Local vélos')
    expect(screen.getByText('Every keychain handed from phone to phone in the organization.')).toBeTruthy()
    expect(rows()).toEqual([
      ['Loge', 'queued'],
      [KEYCHAIN.name, 'APPLIED'],
      ['Local vélos', 'REFUSED'],
    ])
    expect(document.querySelector('[data-refusal="conflict"]')?.textContent).toContain(
      'ask a manager to record who holds the keychain now',
    )
    expect(screen.getByRole('link', { name: 'Loge' }).getAttribute('href')).toBe(
      `/en/app/handovers/${'c'.repeat(43)}`,
    )

    await act(async () => {
      fireEvent.click(screen.getByRole('checkbox', { name: 'Refused only' }))
    })
    await vi.waitFor(() => expect(rows()).toEqual([['Local vélos', 'REFUSED']]))
    expect(asked).toEqual(['/api/handovers', '/api/handovers?status=REFUSED'])
  })

  it('offline, in French, shows what this phone keeps and says the server could not be reached', async () => {
    await useLocale('fr')
    server(true)
    await open(fakeActions({ localHandovers: vi.fn(async () => [handover()]) }), false)
    expect(
      await screen.findByText(
        'Le serveur est injoignable : seules les remises gardées sur ce téléphone sont affichées.',
      ),
    ).toBeTruthy()
    expect(
      screen.getByText('Les trousseaux que vous avez remis ou reçus de téléphone à téléphone.'),
    ).toBeTruthy()
    expect(rows()).toEqual([[KEYCHAIN.name, 'queued']])
    expect(screen.getByText('Pas encore envoyée')).toBeTruthy()
  })

  it('says when there is none', async () => {
    await useLocale('en')
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ data: [], nextCursor: null })),
    )
    await open(fakeActions())
    expect(await screen.findByText('No handover yet.')).toBeTruthy()
  })
})
