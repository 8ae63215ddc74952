import { act, fireEvent, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Receipt } from '../../../contract/receipts.ts'
import type { Transfer } from '../../../contract/transfers.ts'
import { transfer } from '../../../tests/offline-rows.ts'
import { renderWithProviders, useLocale } from '../../../tests/render.tsx'
import { formatDateTime } from '../../lib/format.ts'
import { ReceiptDisclosure, readsReceiptOf } from './ReceiptDisclosure.tsx'

const ID = '00000000-0000-4000-8000-0000000000d1'
const person = (id: string, firstName: string) => ({
  id,
  email: `${firstName}@example.com`,
  firstName,
  lastName: 'M',
})
const pickedUp: Transfer = {
  ...transfer(ID),
  status: 'TRANSFERRED',
  recipient: person('u-contact', 'Léa'),
  authorizedBy: person('u-manager', 'Iris'),
  pickups: [
    {
      id: 'p1',
      kind: 'PICKUP',
      by: person('u-contact', 'Léa'),
      clientTime: null,
      serverTime: '2026-11-22T09:00:00.000Z',
      fromQueue: false,
    },
  ],
}
const receipt: Receipt = {
  id: 'r1',
  transferId: ID,
  organization: { id: 'o1', name: 'Syndic des Archives' },
  keychain: { id: 'kc-cave', name: 'Cave' },
  keys: [{ name: 'Porte', type: 'TAG' }],
  fromDate: '2026-11-22',
  toDate: '2026-11-24',
  recipient: { id: 'u-contact', name: 'Léa Martin', email: 'lea@example.com' },
  handedOverBy: { id: 'u-member', name: 'Rémi Terrain', email: 'remi@example.com' },
  acceptedAt: '2026-11-22T08:58:00.000Z',
  clientTime: '2026-11-22T08:58:00.000Z',
  serverTime: '2026-11-22T09:00:00.000Z',
  fromQueue: true,
  typedName: 'Léa M.',
  signature: 'M10 150 L40 60 L80 140',
  photo: null,
  locale: 'fr',
}

function answer(status: number, body: unknown) {
  const fetchMock = vi.fn(
    async (_url: string, _init?: RequestInit) =>
      new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }),
  )
  vi.stubGlobal('fetch', fetchMock)
  return fetchMock
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('who is offered a transfer’s receipt in a keychain’s list', () => {
  it('the admins and managers, the recipient and the one who authorized it, once it was picked up', () => {
    const viewer = (id: string, managesTransfers = false) => ({ id, managesTransfers })
    expect(readsReceiptOf(pickedUp, viewer('u-anyone', true))).toBe(true)
    expect(readsReceiptOf(pickedUp, viewer('u-contact'))).toBe(true)
    expect(readsReceiptOf(pickedUp, viewer('u-manager'))).toBe(true)
    expect(readsReceiptOf(pickedUp, viewer('u-other-member'))).toBe(false)
    // Not picked up (scheduled, or only a return recorded): there is no receipt to show.
    const scheduled = { ...pickedUp, status: 'SCHEDULED' as const, pickups: [] }
    expect(readsReceiptOf(scheduled, viewer('u-anyone', true))).toBe(false)
    const returnOnly = { ...pickedUp, pickups: [{ ...pickedUp.pickups[0]!, kind: 'RETURN' as const }] }
    expect(readsReceiptOf(returnOnly, viewer('u-contact'))).toBe(false)
  })
})

describe.each(['en', 'fr'] as const)('the receipt under a transfer of the list (%s)', (locale) => {
  const texts = {
    en: {
      show: 'Show the receipt',
      hide: 'Hide the receipt',
      accepted: `Accepted by Léa Martin on ${formatDateTime(receipt.acceptedAt, 'en')}`,
      signature: 'Signature of Léa Martin',
      pdf: 'Receipt (PDF)',
      none: 'No receipt was signed at this pickup.',
      region: 'Handover receipt',
    },
    fr: {
      show: 'Voir le reçu',
      hide: 'Masquer le reçu',
      accepted: `Accepté par Léa Martin le ${formatDateTime(receipt.acceptedAt, 'fr')}`,
      signature: 'Signature de Léa Martin',
      pdf: 'Reçu (PDF)',
      none: 'Aucun reçu n’a été signé à ce retrait.',
      region: 'Reçu de remise',
    },
  }[locale]

  it('loads nothing until opened, then shows who accepted, when, the typed name, the signature and the PDF', async () => {
    await useLocale(locale)
    const fetchMock = answer(200, receipt)
    renderWithProviders(<ReceiptDisclosure transferId={ID} />)
    const toggle = screen.getByRole('button', { name: texts.show })
    expect(toggle.getAttribute('aria-expanded')).toBe('false')
    expect(fetchMock).not.toHaveBeenCalled()
    await act(async () => {
      fireEvent.click(toggle)
    })
    const region = await screen.findByRole('region', { name: texts.region }, { timeout: 10_000 })
    expect(toggle.getAttribute('aria-expanded')).toBe('true')
    expect(toggle.getAttribute('aria-controls')).toBe(region.id)
    expect((await screen.findByTestId('receipt-accepted', {}, { timeout: 10_000 })).textContent).toBe(
      texts.accepted,
    )
    expect(fetchMock).toHaveBeenCalledTimes(1)
    expect(String(fetchMock.mock.calls[0]![0])).toContain(`/api/transfers/${ID}/receipt`)
    expect(screen.getByText('Léa M.')).toBeTruthy()
    expect(screen.getByText('Rémi Terrain')).toBeTruthy()
    const signature = screen.getByRole('img', { name: texts.signature })
    expect(signature.querySelector('path')?.getAttribute('d')).toBe(receipt.signature)
    const pdf = screen.getByRole('link', { name: texts.pdf })
    expect(pdf.getAttribute('href')).toBe(`/api/transfers/${ID}/receipt/pdf`)
    // Closed again: the receipt goes, the button says so.
    fireEvent.click(screen.getByRole('button', { name: texts.hide }))
    expect(screen.queryByTestId('receipt-accepted')).toBeNull()
    expect(toggle.getAttribute('aria-expanded')).toBe('false')
  })

  it('says so when the pickup had no receipt', async () => {
    await useLocale(locale)
    answer(404, { error: { code: 'not_found', message: 'No receipt for this transfer.' } })
    renderWithProviders(<ReceiptDisclosure transferId={ID} />)
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: texts.show }))
    })
    expect(await screen.findByText(texts.none, {}, { timeout: 10_000 })).toBeTruthy()
    expect(screen.queryByRole('link', { name: texts.pdf })).toBeNull()
  })
})
