import type { DeviceKeyRecord } from '../contract/handover-check.ts'
import {
  acceptanceText,
  DEVICE_KEY_ALGORITHM,
  exportPublicKey,
  fingerprintOf,
  freshNonce,
  type HandoverOffer,
  offerIdOf,
  offerText,
  signedCode,
  signText,
} from '../contract/handover-codes.ts'

/** A phone of a test: its id, its key pair (made with WebCrypto as a browser does) and the record the server keeps. */
export type TestDevice = {
  id: string
  userId: string
  keys: CryptoKeyPair
  publicKey: string
  fingerprint: string
  record: DeviceKeyRecord
}

const DAY = 24 * 60 * 60 * 1000

export async function makeDevice(
  userId: string,
  validity: { expiresAt?: Date; revokedAt?: Date | null } = {},
): Promise<TestDevice> {
  const keys = (await crypto.subtle.generateKey(DEVICE_KEY_ALGORITHM, false, [
    'sign',
    'verify',
  ])) as CryptoKeyPair
  const publicKey = await exportPublicKey(keys.publicKey)
  const id = crypto.randomUUID()
  return {
    id,
    userId,
    keys,
    publicKey,
    fingerprint: await fingerprintOf(publicKey),
    record: {
      id,
      userId,
      publicKey,
      expiresAt: (validity.expiresAt ?? new Date(Date.now() + 180 * DAY)).toISOString(),
      revokedAt: validity.revokedAt?.toISOString() ?? null,
    },
  }
}

/** The signed offer and acceptance of a handover from `giver` to `receiver`, as the two phones would make them. */
export async function signedPair(
  giver: TestDevice,
  receiver: TestDevice,
  offer: { organizationId: string; keychainId: string; base?: number; at?: number; acceptedAt?: number },
) {
  const value: HandoverOffer = {
    organizationId: offer.organizationId,
    keychainId: offer.keychainId,
    giverId: giver.userId,
    giverDeviceId: giver.id,
    receiverId: receiver.userId,
    receiverDeviceId: receiver.id,
    receiverNonce: freshNonce(),
    giverNonce: freshNonce(),
    base: offer.base ?? 0,
    at: offer.at ?? Date.now(),
  }
  const text = offerText(value)
  const offerCode = signedCode(text, await signText(giver.keys.privateKey, text))
  const offerId = await offerIdOf(text)
  const accepted = acceptanceText({
    offerId,
    receiverDeviceId: receiver.id,
    at: offer.acceptedAt ?? value.at + 5000,
  })
  const acceptanceCode = signedCode(accepted, await signText(receiver.keys.privateKey, accepted))
  return { offer: value, offerCode, offerId, acceptanceCode }
}
