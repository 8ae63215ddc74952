import {
  type HandoverAcceptance,
  type HandoverOffer,
  offerIdOf,
  parseAcceptance,
  parseOffer,
  type Signed,
  verifyText,
} from './handover-codes.ts'

/**
 * Why a handover is refused (`handover_refused`, 409, with one of these as `reason`). The first group is decided
 * by the codes and the device keys alone (the receiver's phone, the server and the verifier decide it the same
 * way); the second by the server's records.
 */
export const HANDOVER_REFUSALS = [
  /** A code that is not an offer or an acceptance, or one changed since it was made. */
  'malformed',
  /** The acceptance is of another offer, or from another device than the offer names. */
  'not_for_this_offer',
  /** A device the organization's published keys do not hold. */
  'unknown_device',
  /** A device registered to someone other than the person the offer names. */
  'wrong_device',
  'bad_signature',
  /** The device was revoked before the offer was made. */
  'device_revoked',
  /** The device key had expired when the offer was made. */
  'key_expired',
  /** The giver and the receiver are the same person. */
  'same_person',
  /** The offer is dated ahead of the server's clock (beyond `HANDOVER_CLOCK_SKEW_MS`). */
  'clock_ahead',
  /** The offer is older than `HANDOVER_OFFER_MAX_AGE_MS` when it arrives. */
  'expired',
  /** The keychain is not the organization's, or it was deleted. */
  'keychain_gone',
  /** The giver did not hold the keychain when the offer was made. */
  'not_custodian',
  /** The keychain changed hands after the change the offer was based on: another handover came first. */
  'conflict',
  /** The organization does not allow this receiver to be handed keys (role, membership, transfer window). */
  'receiver_not_allowed',
  /** The keychain is out on a transfer: it goes back through its transfer, not from hand to hand. */
  'on_transfer',
] as const
export type HandoverRefusal = (typeof HANDOVER_REFUSALS)[number]

/** A device key as the organization publishes it (the sync feed, the keys file). */
export type DeviceKeyRecord = {
  id: string
  userId: string
  publicKey: string
  expiresAt: string
  revokedAt: string | null
}

/** An offer may be dated this far ahead of the server's clock (two phones' clocks are never exact). */
export const HANDOVER_CLOCK_SKEW_MS = 10 * 60 * 1000
/** An offer that reaches the server later than this is refused (`expired`): the field has moved on. */
export const HANDOVER_OFFER_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000
/** A device key signs for this long after it is made; the device makes a new one before (when online). */
export const DEVICE_KEY_LIFETIME_MS = 180 * 24 * 60 * 60 * 1000

export type SignedPair = {
  offerId: string
  offer: Signed<HandoverOffer>
  acceptance: Signed<HandoverAcceptance>
}
type Checked<T> = { ok: true; value: T } | { ok: false; reason: HandoverRefusal }
const refused = (reason: HandoverRefusal) => ({ ok: false as const, reason })

/** Whether `key` may sign for `userId` at `at` (ms) and did sign `signed`. */
export async function checkSigner(
  key: DeviceKeyRecord | undefined,
  userId: string,
  at: number,
  signed: { text: string; signature: string },
): Promise<HandoverRefusal | null> {
  if (!key) return 'unknown_device'
  if (key.userId !== userId) return 'wrong_device'
  if (!(await verifyText(key.publicKey, signed.text, signed.signature))) return 'bad_signature'
  // Stryker disable next-line ConditionalExpression: Date.parse(null) is NaN, never at or before a time
  if (key.revokedAt !== null && Date.parse(key.revokedAt) <= at) return 'device_revoked'
  if (Date.parse(key.expiresAt) <= at) return 'key_expired'
  return null
}

/**
 * An offer and its acceptance checked against device keys: both parse, the acceptance is of that exact offer
 * from the device it names, each is signed by a key of the person it names that was valid at the offer's time.
 */
export async function checkSignedPair(
  offerCode: string,
  acceptanceCode: string,
  keyOf: (deviceId: string) => DeviceKeyRecord | undefined,
): Promise<Checked<SignedPair>> {
  const offer = parseOffer(offerCode)
  const acceptance = parseAcceptance(acceptanceCode)
  if (!offer || !acceptance) return refused('malformed')
  const offerId = await offerIdOf(offer.text)
  const { value } = offer
  if (acceptance.value.offerId !== offerId || acceptance.value.receiverDeviceId !== value.receiverDeviceId) {
    return refused('not_for_this_offer')
  }
  if (value.giverId === value.receiverId) return refused('same_person')
  const giver = await checkSigner(keyOf(value.giverDeviceId), value.giverId, value.at, offer)
  if (giver) return refused(giver)
  const receiver = await checkSigner(keyOf(value.receiverDeviceId), value.receiverId, value.at, acceptance)
  if (receiver) return refused(receiver)
  return { ok: true, value: { offerId, offer, acceptance } }
}

/** The server's clock rules: not dated ahead of it, not older than the longest wait it accepts. */
export function checkOfferTime(offerAt: number, serverNow: number): HandoverRefusal | null {
  if (offerAt > serverNow + HANDOVER_CLOCK_SKEW_MS) return 'clock_ahead'
  if (offerAt < serverNow - HANDOVER_OFFER_MAX_AGE_MS) return 'expired'
  return null
}
