import { describe, expect, it } from 'vitest'
import { keyRecord, makeDevice, signPair, type TestDevice } from '../tests/handover-devices.ts'
import {
  checkOfferTime,
  checkSignedPair,
  checkSigner,
  DEVICE_KEY_LIFETIME_MS,
  type DeviceKeyRecord,
  HANDOVER_CLOCK_SKEW_MS,
  HANDOVER_OFFER_MAX_AGE_MS,
} from './handover-check.ts'
import { acceptanceText, offerText, signedCode, signText } from './handover-codes.ts'

const ORG = '3f1fccc0-67ad-4720-8232-4e67540222b4'
const KEYCHAIN = '10bfd28b-6363-41e7-a4d0-3a3c34d178f1'
const AT = Date.parse('2026-11-29T10:00:00Z')

const keysOf =
  (...devices: (TestDevice | DeviceKeyRecord)[]) =>
  (id: string) =>
    devices
      .map((device) => ('privateKey' in device ? keyRecord(device) : device))
      .find((record) => record.id === id)

async function twoPhones() {
  const giver = await makeDevice({ id: crypto.randomUUID() })
  const receiver = await makeDevice({ id: crypto.randomUUID() })
  const pair = await signPair({
    giver,
    receiver,
    organizationId: ORG,
    keychainId: KEYCHAIN,
    base: 3,
    at: AT,
  })
  return { giver, receiver, pair }
}

/** A code with one character of its field `index` replaced (the signature is the last field). */
function changed(code: string, index: number): string {
  const parts = code.split('|')
  const part = parts[index] as string
  const last = part.at(-2) === 'A' ? 'B' : 'A'
  parts[index] = `${part.slice(0, -2)}${last}${part.at(-1)}`
  return parts.join('|')
}

describe('checkSignedPair', () => {
  it('holds for an offer and its acceptance signed by the two devices', async () => {
    const { giver, receiver, pair } = await twoPhones()
    const check = await checkSignedPair(pair.offer, pair.acceptance, keysOf(giver, receiver))
    expect(check).toEqual({
      ok: true,
      value: {
        offerId: pair.offerId,
        offer: expect.objectContaining({ value: pair.value }),
        acceptance: expect.objectContaining({ value: expect.objectContaining({ offerId: pair.offerId }) }),
      },
    })
  })

  it('refuses codes that do not parse', async () => {
    const { giver, receiver, pair } = await twoPhones()
    const keys = keysOf(giver, receiver)
    expect(await checkSignedPair('nonsense', pair.acceptance, keys)).toEqual({
      ok: false,
      reason: 'malformed',
    })
    expect(await checkSignedPair(pair.offer, 'nonsense', keys)).toEqual({
      ok: false,
      reason: 'malformed',
    })
    expect(await checkSignedPair(pair.acceptance, pair.offer, keys)).toEqual({
      ok: false,
      reason: 'malformed',
    })
  })

  it('refuses any field of the offer changed after signing', async () => {
    const { giver, receiver, pair } = await twoPhones()
    const keys = keysOf(giver, receiver)
    // Ids, nonces, base, time: the acceptance no longer names the offer, or the signature no longer holds.
    for (const index of [3, 8, 9, 10, 11]) {
      const check = await checkSignedPair(changed(pair.offer, index), pair.acceptance, keys)
      expect(check.ok).toBe(false)
    }
    expect(await checkSignedPair(changed(pair.offer, 12), pair.acceptance, keys)).toEqual({
      ok: false,
      reason: 'bad_signature',
    })
    expect(await checkSignedPair(pair.offer, changed(pair.acceptance, 5), keys)).toEqual({
      ok: false,
      reason: 'bad_signature',
    })
  })

  it('refuses an acceptance of another offer, or from another device than the offer names', async () => {
    const { giver, receiver, pair } = await twoPhones()
    const other = await signPair({ giver, receiver, organizationId: ORG, keychainId: KEYCHAIN, at: AT })
    const keys = keysOf(giver, receiver)
    expect(await checkSignedPair(pair.offer, other.acceptance, keys)).toEqual({
      ok: false,
      reason: 'not_for_this_offer',
    })
    const stranger = await makeDevice({ id: receiver.userId })
    const text = acceptanceText({ offerId: pair.offerId, receiverDeviceId: stranger.id, at: AT })
    const fromStranger = signedCode(text, await signText(stranger.privateKey, text))
    expect(await checkSignedPair(pair.offer, fromStranger, keysOf(giver, receiver, stranger))).toEqual({
      ok: false,
      reason: 'not_for_this_offer',
    })
  })

  it('refuses a handover to oneself', async () => {
    const giver = await makeDevice({ id: crypto.randomUUID() })
    const second = await makeDevice({ id: giver.userId })
    const pair = await signPair({
      giver: giver,
      receiver: second,
      organizationId: ORG,
      keychainId: KEYCHAIN,
      at: AT,
    })
    expect(await checkSignedPair(pair.offer, pair.acceptance, keysOf(giver, second))).toEqual({
      ok: false,
      reason: 'same_person',
    })
  })

  it('names the side whose device is unknown, foreign, revoked or expired', async () => {
    const { giver, receiver, pair } = await twoPhones()
    const check = (keys: (id: string) => DeviceKeyRecord | undefined) =>
      checkSignedPair(pair.offer, pair.acceptance, keys)
    expect(await check(keysOf(receiver))).toEqual({ ok: false, reason: 'unknown_device' })
    expect(await check(keysOf(giver))).toEqual({ ok: false, reason: 'unknown_device' })
    expect(await check(keysOf({ ...keyRecord(giver), userId: receiver.userId }, receiver))).toEqual({
      ok: false,
      reason: 'wrong_device',
    })
    expect(await check(keysOf(giver, { ...keyRecord(receiver), userId: giver.userId }))).toEqual({
      ok: false,
      reason: 'wrong_device',
    })
    const at = (ms: number) => new Date(ms).toISOString()
    expect(await check(keysOf({ ...keyRecord(giver), revokedAt: at(AT) }, receiver))).toEqual({
      ok: false,
      reason: 'device_revoked',
    })
    expect(await check(keysOf(giver, { ...keyRecord(receiver), revokedAt: at(AT - 1) }))).toEqual({
      ok: false,
      reason: 'device_revoked',
    })
    // Revoked after the offer was made: the handover stands.
    expect((await check(keysOf({ ...keyRecord(giver), revokedAt: at(AT + 1) }, receiver))).ok).toBe(true)
    expect(await check(keysOf({ ...keyRecord(giver), expiresAt: at(AT) }, receiver))).toEqual({
      ok: false,
      reason: 'key_expired',
    })
    expect(await check(keysOf(giver, { ...keyRecord(receiver), expiresAt: at(AT) }))).toEqual({
      ok: false,
      reason: 'key_expired',
    })
    expect((await check(keysOf({ ...keyRecord(giver), expiresAt: at(AT + 1) }, receiver))).ok).toBe(true)
  })

  it('refuses a signature made by another key than the device’s', async () => {
    const { giver, receiver, pair } = await twoPhones()
    const impostor = await makeDevice({ id: giver.userId })
    const text = offerText(pair.value)
    const forged = signedCode(text, await signText(impostor.privateKey, text))
    expect(await checkSignedPair(forged, pair.acceptance, keysOf(giver, receiver))).toEqual({
      ok: false,
      reason: 'bad_signature',
    })
  })
})

describe('checkSigner', () => {
  it('checks the device, then the signature, then the key’s validity', async () => {
    const device = await makeDevice({ id: crypto.randomUUID() })
    const text = 'TRH1|A|x'
    const signed = { text, signature: await signText(device.privateKey, text) }
    expect(await checkSigner(undefined, device.userId, AT, signed)).toBe('unknown_device')
    expect(await checkSigner(keyRecord(device), crypto.randomUUID(), AT, signed)).toBe('wrong_device')
    expect(
      await checkSigner(keyRecord(device), device.userId, AT, { text: 'other', signature: signed.signature }),
    ).toBe('bad_signature')
    expect(await checkSigner(keyRecord(device), device.userId, AT, signed)).toBeNull()
  })
})

describe('checkOfferTime', () => {
  it('accepts an offer dated up to the skew ahead and up to the longest wait behind', () => {
    const now = AT
    expect(checkOfferTime(now, now)).toBeNull()
    expect(checkOfferTime(now + HANDOVER_CLOCK_SKEW_MS, now)).toBeNull()
    expect(checkOfferTime(now + HANDOVER_CLOCK_SKEW_MS + 1, now)).toBe('clock_ahead')
    expect(checkOfferTime(now - HANDOVER_OFFER_MAX_AGE_MS, now)).toBeNull()
    expect(checkOfferTime(now - HANDOVER_OFFER_MAX_AGE_MS - 1, now)).toBe('expired')
    expect(HANDOVER_CLOCK_SKEW_MS).toBe(10 * 60 * 1000)
    expect(HANDOVER_OFFER_MAX_AGE_MS).toBe(30 * 24 * 60 * 60 * 1000)
    expect(DEVICE_KEY_LIFETIME_MS).toBe(180 * 24 * 60 * 60 * 1000)
  })
})
