import type { DeviceKeyRecord } from '../contract/handover-check.ts'
import {
  acceptanceText,
  DEVICE_KEY_ALGORITHM,
  exportPublicKey,
  freshNonce,
  type HandoverOffer,
  offerIdOf,
  offerText,
  signedCode,
  signText,
} from '../contract/handover-codes.ts'

/** A device of a test person: its WebCrypto key pair (the private half never leaves it), as a phone holds one. */
export type TestDevice = { id: string; userId: string; privateKey: CryptoKey; publicKey: string }

/** A new P-256 key pair under a new device id, for `person`. */
export async function makeDevice(person: { id: string }): Promise<TestDevice> {
  const pair = (await crypto.subtle.generateKey(DEVICE_KEY_ALGORITHM, false, [
    'sign',
    'verify',
  ])) as CryptoKeyPair
  return {
    id: crypto.randomUUID(),
    userId: person.id,
    privateKey: pair.privateKey,
    publicKey: await exportPublicKey(pair.publicKey),
  }
}

const DAY = 24 * 60 * 60 * 1000

/** The device as the organization publishes it: valid 180 days from now unless told otherwise. */
export function keyRecord(
  device: TestDevice,
  validity: { expiresAt?: Date; revokedAt?: Date | null } = {},
): DeviceKeyRecord {
  return {
    id: device.id,
    userId: device.userId,
    publicKey: device.publicKey,
    expiresAt: (validity.expiresAt ?? new Date(Date.now() + 180 * DAY)).toISOString(),
    revokedAt: validity.revokedAt?.toISOString() ?? null,
  }
}

export type PairInput = {
  organizationId: string
  keychainId: string
  giver: TestDevice
  receiver: TestDevice
  /** The last custody change the giver's phone knew of (default 0: none). */
  base?: number
  /** The giver's device time. */
  at: number
  /** The receiver's device time (default: `at`, a few seconds later). */
  acceptedAt?: number
  /** Signs the offer with this device instead of the giver's (a forgery). */
  offerSigner?: TestDevice
  /** Signs the acceptance with this device instead of the receiver's. */
  acceptanceSigner?: TestDevice
}

/** A signed offer from the giver's device and the receiver's signed acceptance of it, as two phones make them. */
export async function signPair(input: PairInput) {
  const value: HandoverOffer = {
    organizationId: input.organizationId,
    keychainId: input.keychainId,
    giverId: input.giver.userId,
    giverDeviceId: input.giver.id,
    receiverId: input.receiver.userId,
    receiverDeviceId: input.receiver.id,
    receiverNonce: freshNonce(),
    giverNonce: freshNonce(),
    base: input.base ?? 0,
    at: input.at,
  }
  const text = offerText(value)
  const offerId = await offerIdOf(text)
  const offer = signedCode(text, await signText((input.offerSigner ?? input.giver).privateKey, text))
  const accepted = acceptanceText({
    offerId,
    receiverDeviceId: input.receiver.id,
    at: input.acceptedAt ?? value.at + 5_000,
  })
  const acceptance = signedCode(
    accepted,
    await signText((input.acceptanceSigner ?? input.receiver).privateKey, accepted),
  )
  return { offerId, offer, acceptance, value }
}
