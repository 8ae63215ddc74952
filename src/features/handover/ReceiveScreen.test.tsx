import { act, fireEvent, screen } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import {
  ACCEPTANCE_CODE,
  fakeActions,
  KEYCHAIN,
  OFFER_CODE,
  OFFER_ID,
  ORGANIZATION,
  RECEIVE_CODE,
  RECEIVER,
} from '../../../tests/handover-screens.ts'
import { renderWithRouter, useLocale } from '../../../tests/render.tsx'
import type { HandoverActions } from './actions.ts'
import { ReceiveScreen } from './ReceiveScreen.tsx'

const open = (actions: HandoverActions) =>
  renderWithRouter(<ReceiveScreen userId={RECEIVER.id} organizationId={ORGANIZATION} actions={actions} />)

/** Types (or pastes, or a hardware scanner types) a code into the field, then Enter. */
async function enter(label: string, value: string) {
  const field = screen.getByLabelText(label)
  fireEvent.change(field, { target: { value } })
  await act(async () => {
    fireEvent.submit(field.closest('form') as HTMLFormElement)
  })
}

describe('receiving a keychain', () => {
  it('shows the receive code as a QR and as text, takes the offer, then shows the acceptance and who holds it', async () => {
    await useLocale('en')
    const actions = fakeActions()
    const { container } = await open(actions)
    expect(await screen.findByText(RECEIVE_CODE)).toBeTruthy()
    expect(actions.startReceiving).toHaveBeenCalledWith(RECEIVER.id, ORGANIZATION)
    expect(await screen.findByRole('img', { name: 'Your receive code, to scan' })).toBeTruthy()
    expect(container.querySelector(`[data-qr-value="${RECEIVE_CODE}"]`)).not.toBeNull()

    await enter('Offer code', ` ${OFFER_CODE} `)
    expect(actions.acceptOffer).toHaveBeenCalledWith({
      userId: RECEIVER.id,
      organizationId: ORGANIZATION,
      offerCode: OFFER_CODE,
    })
    expect(screen.getByRole('status').textContent).toBe(`You now hold ${KEYCHAIN.name}.`)
    expect(screen.getByRole('heading', { name: 'Show this to Marie Curie' })).toBeTruthy()
    expect(container.querySelector('[data-handover-code]')?.getAttribute('data-handover-code')).toBe(
      ACCEPTANCE_CODE,
    )
    expect(await screen.findByRole('img', { name: `Acceptance of ${KEYCHAIN.name}, to scan` })).toBeTruthy()
    expect(screen.getByRole('link', { name: 'See the receipt' }).getAttribute('href')).toBe(
      `/en/app/handovers/${OFFER_ID}`,
    )
  })

  it('says why an offer is refused and what to do, and takes the next one', async () => {
    await useLocale('fr')
    const acceptOffer = vi
      .fn<HandoverActions['acceptOffer']>()
      .mockResolvedValueOnce({ ok: false, reason: 'not_for_this_device' })
      .mockResolvedValueOnce({ ok: false, reason: 'unknown_device' })
    await open(fakeActions({ acceptOffer }))
    await screen.findByText(RECEIVE_CODE)
    await enter("Code de l'offre", OFFER_CODE)
    const alert = screen.getByRole('alert')
    expect(alert.getAttribute('data-refusal')).toBe('not_for_this_device')
    expect(alert.textContent).toContain('Cette offre a été faite pour un autre téléphone')
    await enter("Code de l'offre", OFFER_CODE)
    expect(screen.getByRole('alert').getAttribute('data-refusal')).toBe('unknown_device')
    expect(screen.getByRole('heading', { name: 'Recevoir un trousseau' })).toBeTruthy()
  })

  it('offers to try again when the phone cannot make a code, and makes a new one on demand', async () => {
    await useLocale('en')
    const startReceiving = vi
      .fn<HandoverActions['startReceiving']>()
      .mockRejectedValueOnce(new Error('IndexedDB unavailable'))
      .mockResolvedValueOnce({ code: RECEIVE_CODE })
      .mockResolvedValueOnce({ code: 'R-0000-1111-2222-3333' })
    await open(fakeActions({ startReceiving }))
    expect((await screen.findByRole('alert')).textContent).toContain(
      'This phone could not make a receive code.',
    )
    expect((screen.getByRole('button', { name: 'Check' }) as HTMLButtonElement).disabled).toBe(true)
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Try again' }))
    })
    expect(await screen.findByText(RECEIVE_CODE)).toBeTruthy()
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'New code' }))
    })
    expect(await screen.findByText('R-0000-1111-2222-3333')).toBeTruthy()
    expect(startReceiving).toHaveBeenCalledTimes(3)
  })
})
