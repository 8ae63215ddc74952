import { screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Handover } from '../../../contract/handover.ts'
import {
  fakeActions,
  GIVER,
  handover,
  KEYCHAIN,
  OFFER_ID,
  ORGANIZATION,
  RECEIVER,
} from '../../../tests/handover-screens.ts'
import { renderWithRouter, useLocale } from '../../../tests/render.tsx'
import type { HandoverActions } from './actions.ts'
import { HandoverReceiptScreen } from './HandoverReceiptScreen.tsx'

afterEach(() => {
  vi.unstubAllGlobals()
})

const recorded = (overrides: Partial<Handover> = {}): Handover => ({
  id: OFFER_ID,
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

/** The server: the handover as `answer` says, a 404 when it has not had it, or no network at all. */
function server(answer: Handover | 'unknown' | 'offline') {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => {
      if (answer === 'offline') throw new TypeError('Failed to fetch')
      if (answer === 'unknown')
        return Response.json({ error: { code: 'not_found', message: 'Not found.' } }, { status: 404 })
      return Response.json(answer)
    }),
  )
}

const open = (actions: HandoverActions) =>
  renderWithRouter(<HandoverReceiptScreen organizationId={ORGANIZATION} id={OFFER_ID} actions={actions} />)

const field = (testId: string) => screen.getByTestId(testId).textContent

describe('a handover’s receipt', () => {
  it('offline, shows what this phone keeps: queued, both people, the times, no receipt files yet', async () => {
    await useLocale('en')
    server('offline')
    await open(fakeActions({ localHandover: vi.fn(async () => handover()) }))
    expect(await screen.findByRole('heading', { name: `Handover of ${KEYCHAIN.name}` })).toBeTruthy()
    expect(screen.getByText('Not sent yet')).toBeTruthy()
    expect(
      screen.getByText(
        `Kept on this phone, signed by both: Paul Martin holds ${KEYCHAIN.name}. It is sent when the network is back.`,
      ),
    ).toBeTruthy()
    expect([field('receipt-giver'), field('receipt-receiver')]).toEqual(['Marie Curie', 'Paul Martin'])
    expect(screen.getByText('Not yet')).toBeTruthy()
    expect(screen.queryByRole('link', { name: 'Receipt (PDF)' })).toBeNull()
  })

  it('once applied, says so and links the signed receipt as PDF and JSON', async () => {
    await useLocale('en')
    server(recorded())
    await open(fakeActions({ localHandover: vi.fn(async () => handover()) }))
    expect(
      await screen.findByText(`Recorded by the server: Paul Martin holds ${KEYCHAIN.name}.`),
    ).toBeTruthy()
    expect(screen.getByText('Recorded')).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Receipt (PDF)' }).getAttribute('href')).toBe(
      `/api/handovers/${OFFER_ID}/receipt.pdf`,
    )
    expect(screen.getByRole('link', { name: 'Signed receipt (JSON)' }).getAttribute('href')).toBe(
      `/api/handovers/${OFFER_ID}/receipt.json`,
    )
  })

  it('refused, says why and what to do, in French, from the server’s record alone', async () => {
    await useLocale('fr')
    server(recorded({ status: 'REFUSED', reason: 'conflict' }))
    await open(fakeActions())
    expect(
      await screen.findByText("Le serveur a refusé cette remise : le trousseau n'a pas changé de mains."),
    ).toBeTruthy()
    expect(screen.getByText('Refusée')).toBeTruthy()
    const refusal = document.querySelector('[data-refusal="conflict"]')
    expect(refusal?.textContent).toContain('Quelqu’un d’autre a reçu ce trousseau en premier')
    expect(refusal?.textContent).toContain('demandez à un gestionnaire')
    expect(screen.queryByRole('link', { name: 'Reçu (PDF)' })).toBeNull()
  })

  it('says the handover does not exist when neither this phone nor the server knows it', async () => {
    await useLocale('en')
    server('unknown')
    await open(fakeActions())
    expect(await screen.findByRole('heading', { name: 'Page Not Found' })).toBeTruthy()
  })
})
