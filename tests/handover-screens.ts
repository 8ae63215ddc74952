import { vi } from 'vitest'
import type { HandoverActions } from '../src/features/handover/actions.ts'
import type { LocalHandover } from '../src/offline/handover.ts'

// Two people handing a keychain over, as the handover screens' tests see them, and a phone's offline layer
// answering as a test says.

export const ORGANIZATION = '00000000-0000-4000-8000-0000000000a1'
export const KEYCHAIN = { id: '00000000-0000-4000-8000-0000000000b1', name: 'Cave du 14' }
export const GIVER = {
  id: '00000000-0000-4000-8000-0000000000c1',
  email: 'marie@example.com',
  firstName: 'Marie',
  lastName: 'Curie',
}
export const RECEIVER = {
  id: '00000000-0000-4000-8000-0000000000c2',
  email: 'paul@example.com',
  firstName: 'Paul',
  lastName: 'Martin',
}
export const RECEIVE_CODE = 'R-ABCD-EFGH-JKMN-PQRS'
export const OFFER_CODE = `TRH1|O|${ORGANIZATION}|${KEYCHAIN.id}|offer-signature`
export const ACCEPTANCE_CODE = 'TRH1|A|offer-id|acceptance-signature'
export const OFFER_ID = 'x'.repeat(43)

export const handover = (overrides: Partial<LocalHandover> = {}): LocalHandover => ({
  offerId: OFFER_ID,
  role: 'receiver',
  organizationId: ORGANIZATION,
  keychain: KEYCHAIN,
  giver: GIVER,
  receiver: RECEIVER,
  offerCode: OFFER_CODE,
  acceptanceCode: ACCEPTANCE_CODE,
  offeredAt: '2030-03-04T08:30:00.000Z',
  acceptedAt: '2030-03-04T08:31:00.000Z',
  state: 'queued',
  reason: null,
  ...overrides,
})

/** An offline layer that accepts everything; a test replaces what it needs. */
export function fakeActions(overrides: Partial<HandoverActions> = {}): HandoverActions {
  return {
    startReceiving: vi.fn(async () => ({ code: RECEIVE_CODE })),
    makeOffer: vi.fn(async () => ({
      ok: true as const,
      offerCode: OFFER_CODE,
      offerId: OFFER_ID,
      receiver: RECEIVER,
    })),
    acceptOffer: vi.fn(async () => ({
      ok: true as const,
      acceptanceCode: ACCEPTANCE_CODE,
      handover: handover(),
    })),
    completeOffer: vi.fn(async () => ({ ok: true as const, handover: handover({ role: 'giver' }) })),
    localHandover: vi.fn(async () => undefined),
    localHandovers: vi.fn(async () => []),
    ...overrides,
  }
}
