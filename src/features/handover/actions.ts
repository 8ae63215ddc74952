import type * as Handover from '../../offline/handover.ts'

/** What the handover screens ask of this phone's offline layer: passed in by tests, loaded lazily otherwise. */
export type HandoverActions = Pick<
  typeof Handover,
  'startReceiving' | 'makeOffer' | 'acceptOffer' | 'completeOffer' | 'localHandover' | 'localHandovers'
>

// The offline layer (Dexie, the device key, the outbox) loads with the first step, not with the screen.
const load = () => import('../../offline/handover.ts')

export const offlineHandoverActions: HandoverActions = {
  startReceiving: async (...input) => (await load()).startReceiving(...input),
  makeOffer: async (...input) => (await load()).makeOffer(...input),
  acceptOffer: async (...input) => (await load()).acceptOffer(...input),
  completeOffer: async (...input) => (await load()).completeOffer(...input),
  localHandover: async (...input) => (await load()).localHandover(...input),
  localHandovers: async (...input) => (await load()).localHandovers(...input),
}
