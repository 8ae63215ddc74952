import { act, fireEvent, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  ACCEPTANCE_CODE,
  fakeActions,
  GIVER,
  handover,
  KEYCHAIN,
  OFFER_CODE,
  OFFER_ID,
  ORGANIZATION,
  RECEIVE_CODE,
} from '../../../tests/handover-screens.ts'
import { renderWithRouter, useLocale } from '../../../tests/render.tsx'
import type { HandoverActions } from './actions.ts'
import { GiveScreen } from './GiveScreen.tsx'

afterEach(() => {
  vi.unstubAllGlobals()
})

/** The server answers the keychain's page (its name heads the screen). */
function server() {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () =>
      Response.json({
        id: KEYCHAIN.id,
        organizationId: ORGANIZATION,
        organizationName: 'Agence du Port',
        name: KEYCHAIN.name,
        custodian: GIVER,
        keys: [],
        createdAt: '2030-01-10T12:00:00.000Z',
        updatedAt: '2030-01-10T12:00:00.000Z',
        status: 'HELD',
        transfer: null,
      }),
    ),
  )
}

const open = (actions: HandoverActions) =>
  renderWithRouter(
    <GiveScreen userId={GIVER.id} organizationId={ORGANIZATION} keychainId={KEYCHAIN.id} actions={actions} />,
  )

async function enter(label: string, value: string) {
  const field = screen.getByLabelText(label)
  fireEvent.change(field, { target: { value } })
  await act(async () => {
    fireEvent.submit(field.closest('form') as HTMLFormElement)
  })
}

describe('handing a keychain over', () => {
  it('takes the receive code, shows the offer to scan, takes the acceptance, then says who holds it', async () => {
    await useLocale('en')
    server()
    const actions = fakeActions()
    const { container } = await open(actions)
    expect(await screen.findByRole('heading', { name: `Hand over ${KEYCHAIN.name}` })).toBeTruthy()

    await enter('Receive code', RECEIVE_CODE.toLowerCase())
    expect(actions.makeOffer).toHaveBeenCalledWith({
      userId: GIVER.id,
      organizationId: ORGANIZATION,
      keychainId: KEYCHAIN.id,
      receiveCode: RECEIVE_CODE.toLowerCase(),
    })
    expect(screen.getByRole('heading', { name: 'Let Paul Martin scan this' })).toBeTruthy()
    expect(container.querySelector('[data-handover-code]')?.getAttribute('data-handover-code')).toBe(
      OFFER_CODE,
    )
    expect(await screen.findByRole('img', { name: `Offer of ${KEYCHAIN.name}, to scan` })).toBeTruthy()

    await enter('Acceptance code', ACCEPTANCE_CODE)
    expect(actions.completeOffer).toHaveBeenCalledWith({
      userId: GIVER.id,
      organizationId: ORGANIZATION,
      acceptanceCode: ACCEPTANCE_CODE,
    })
    expect(screen.getByRole('status').textContent).toBe(`Paul Martin now holds ${KEYCHAIN.name}.`)
    expect(screen.getByRole('link', { name: 'See the receipt' }).getAttribute('href')).toBe(
      `/en/app/handovers/${OFFER_ID}`,
    )
  })

  it('says why the receive code or the acceptance is refused, in French, and keeps the step', async () => {
    await useLocale('fr')
    server()
    const makeOffer = vi
      .fn<HandoverActions['makeOffer']>()
      .mockResolvedValueOnce({ ok: false, reason: 'not_a_receive_code' })
      .mockResolvedValueOnce({
        ok: true,
        offerCode: OFFER_CODE,
        offerId: OFFER_ID,
        receiver: handover().receiver,
      })
    const completeOffer = vi
      .fn<HandoverActions['completeOffer']>()
      .mockResolvedValueOnce({ ok: false, reason: 'not_for_this_offer' })
    await open(fakeActions({ makeOffer, completeOffer }))
    await screen.findByRole('heading', { name: `Remettre ${KEYCHAIN.name}` })
    await enter('Code de réception', 'ABC-00042')
    expect(screen.getByRole('alert').getAttribute('data-refusal')).toBe('not_a_receive_code')
    expect(screen.getByRole('alert').textContent).toContain("Ce n'est pas un code de réception.")
    await enter('Code de réception', RECEIVE_CODE)
    expect(screen.queryByRole('alert')).toBeNull()
    expect(screen.getByRole('heading', { name: 'Faites scanner ceci à Paul Martin' })).toBeTruthy()
    await enter("Code d'acceptation", ACCEPTANCE_CODE)
    expect(screen.getByRole('alert').getAttribute('data-refusal')).toBe('not_for_this_offer')
    expect(screen.getByRole('heading', { name: 'Faites scanner ceci à Paul Martin' })).toBeTruthy()
  })

  it('refuses at once a keychain this phone does not show me holding', async () => {
    await useLocale('en')
    server()
    await open(
      fakeActions({ makeOffer: vi.fn(async () => ({ ok: false as const, reason: 'not_holder' as const })) }),
    )
    await enter('Receive code', RECEIVE_CODE)
    expect(screen.getByRole('alert').textContent).toBe(
      'As far as this phone knows, you do not hold this keychain.Only the person who holds a keychain can hand it over. Sync the phone if you just received it.',
    )
    expect(screen.getByLabelText('Receive code')).toBeTruthy()
  })
})
