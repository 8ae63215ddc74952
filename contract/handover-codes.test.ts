import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { makeDevice, signPair } from '../tests/handover-devices.ts'
import {
  acceptanceText,
  fingerprintOf,
  formatReceiveCode,
  freshNonce,
  fromBase64Url,
  offerIdOf,
  offerText,
  parseAcceptance,
  parseOffer,
  parseReceiveCode,
  signedCode,
  signText,
  toBase32,
  toBase64Url,
  verifyText,
} from './handover-codes.ts'

const ORG = '3f1fccc0-67ad-4720-8232-4e67540222b4'
const KEYCHAIN = '10bfd28b-6363-41e7-a4d0-3a3c34d178f1'

describe('encodings', () => {
  it('writes base64url without padding and reads back only its one spelling', () => {
    expect(toBase64Url(new Uint8Array([251, 255, 191]))).toBe('-_-_')
    expect(toBase64Url(new Uint8Array([1]))).toBe('AQ')
    expect(Array.from(fromBase64Url('-_-_') ?? [])).toEqual([251, 255, 191])
    expect(Array.from(fromBase64Url('AQ') ?? [])).toEqual([1])
    expect(fromBase64Url('')?.length).toBe(0)
    // The same byte with its unused bits set is another spelling: refused.
    expect(fromBase64Url('AR')).toBeNull()
    expect(fromBase64Url('AQ==')).toBeNull()
    expect(fromBase64Url('+/+/')).toBeNull()
    expect(fromBase64Url('A')).toBeNull()
    expect(fromBase64Url('AQ ')).toBeNull()
  })

  it('writes five bytes as eight Crockford base32 characters', () => {
    expect(toBase32(new Uint8Array([0, 0, 0, 0, 0]))).toBe('00000000')
    expect(toBase32(new Uint8Array([255, 255, 255, 255, 255]))).toBe('ZZZZZZZZ')
    expect(toBase32(new Uint8Array([0x08, 0x86, 0x42, 0x98, 0xe8]))).toBe('12345678')
    expect(freshNonce()).toMatch(/^[0-9A-HJKMNP-TV-Z]{8}$/)
    expect(freshNonce()).not.toBe(freshNonce())
  })

  it('names a device by the first 40 bits of its public key’s SHA-256', async () => {
    const first = createHash('sha256').update('the key').digest().subarray(0, 5)
    expect(await fingerprintOf('the key')).toBe(toBase32(new Uint8Array(first)))
    expect(await fingerprintOf('the key')).toMatch(/^[0-9A-HJKMNP-TV-Z]{8}$/)
    expect(await fingerprintOf('another key')).not.toBe(await fingerprintOf('the key'))
  })
})

describe('the receive code', () => {
  it('is grouped for reading and typing, and read back however it is typed', () => {
    const code = formatReceiveCode({ fingerprint: 'ABCDEFGH', nonce: '0123ZZZZ' })
    expect(code).toBe('R-ABCD-EFGH-0123-ZZZZ')
    expect(parseReceiveCode(code)).toEqual({ fingerprint: 'ABCDEFGH', nonce: '0123ZZZZ' })
    expect(parseReceiveCode(' r abcd efgh o123 zzzz ')).toEqual({
      fingerprint: 'ABCDEFGH',
      nonce: '0123ZZZZ',
    })
    expect(parseReceiveCode('RABCDEFGHI1L0ZZZZ')).toEqual({ fingerprint: 'ABCDEFGH', nonce: '1110ZZZZ' })
  })

  it('refuses what is not one', () => {
    expect(parseReceiveCode('R-ABCD-EFGH-0123-ZZZ')).toBeNull()
    expect(parseReceiveCode('R-ABCD-EFGH-0123-ZZZZZ')).toBeNull()
    expect(parseReceiveCode('X-ABCD-EFGH-0123-ZZZZ')).toBeNull()
    expect(parseReceiveCode('R-ABCD-EFGH-0123-ZZZU')).toBeNull()
    expect(parseReceiveCode('xR-ABCD-EFGH-0123-ZZZZ')).toBeNull()
    expect(parseReceiveCode('')).toBeNull()
  })
})

describe('the offer and the acceptance', () => {
  it('round-trips a signed offer and a signed acceptance, each checkable with its device key', async () => {
    const giver = await makeDevice({ id: crypto.randomUUID() })
    const receiver = await makeDevice({ id: crypto.randomUUID() })
    const pair = await signPair({
      giver,
      receiver,
      organizationId: ORG,
      keychainId: KEYCHAIN,
      base: 42,
      at: 1700,
    })
    const offer = parseOffer(pair.offer)
    expect(offer?.value).toEqual(pair.value)
    expect(offer?.text).toBe(offerText(pair.value))
    expect(offer?.text.split('|').slice(0, 3)).toEqual(['TRH1', 'O', ORG])
    expect(offer?.text.endsWith('|42|1700')).toBe(true)
    expect(await verifyText(giver.publicKey, offer?.text ?? '', offer?.signature ?? '')).toBe(true)
    expect(await verifyText(receiver.publicKey, offer?.text ?? '', offer?.signature ?? '')).toBe(false)

    const acceptance = parseAcceptance(pair.acceptance)
    expect(acceptance?.value).toEqual({ offerId: pair.offerId, receiverDeviceId: receiver.id, at: 6700 })
    expect(acceptance?.text).toBe(`TRH1|A|${pair.offerId}|${receiver.id}|6700`)
    expect(await verifyText(receiver.publicKey, acceptance?.text ?? '', acceptance?.signature ?? '')).toBe(
      true,
    )
    expect(pair.offerId).toBe(await offerIdOf(offerText(pair.value)))
    expect(pair.offerId).toMatch(/^[A-Za-z0-9_-]{43}$/)
  })

  it('refuses an offer spelled any other way than it is written', async () => {
    const giver = await makeDevice({ id: crypto.randomUUID() })
    const receiver = await makeDevice({ id: crypto.randomUUID() })
    const { offer: offerCode, value: offer } = await signPair({
      giver,
      receiver,
      organizationId: ORG,
      keychainId: KEYCHAIN,
      at: 1700,
    })
    const parts = offerCode.split('|')
    const withPart = (index: number, value: string) =>
      parts.map((part, i) => (i === index ? value : part)).join('|')
    expect(parseOffer(offerCode)).not.toBeNull()
    expect(parseOffer(withPart(0, 'TRH2'))).toBeNull()
    expect(parseOffer(withPart(1, 'A'))).toBeNull()
    for (const index of [2, 3, 4, 5, 6, 7]) {
      expect(parseOffer(withPart(index, (parts[index] as string).toUpperCase()))).toBeNull()
      expect(parseOffer(withPart(index, 'not-a-uuid'))).toBeNull()
    }
    expect(parseOffer(withPart(8, 'abcdefgh'))).toBeNull()
    expect(parseOffer(withPart(8, `${parts[8]}J`))).toBeNull()
    expect(parseOffer(withPart(9, `J${parts[9]}`))).toBeNull()
    expect(parseOffer(withPart(2, `x${parts[2]}`))).toBeNull()
    expect(parseOffer(withPart(3, `${parts[3]}0`))).toBeNull()
    expect(parseOffer(withPart(10, '12.5'))).toBeNull()
    expect(parseOffer(withPart(10, '1'.repeat(17)))).toBeNull()
    expect(parseOffer(withPart(9, 'ABCDEFG'))).toBeNull()
    expect(parseOffer(withPart(10, '07'))).toBeNull()
    expect(parseOffer(withPart(10, '-1'))).toBeNull()
    expect(parseOffer(withPart(11, '1e3'))).toBeNull()
    expect(parseOffer(withPart(11, String(offer.at)))).not.toBeNull()
    expect(parseOffer(`${offerCode}|extra`)).toBeNull()
    expect(parseOffer(parts.slice(0, -1).join('|'))).toBeNull()
    expect(parseOffer(` ${offerCode}`)).toBeNull()
  })

  it('refuses an acceptance spelled any other way than it is written', async () => {
    const giver = await makeDevice({ id: crypto.randomUUID() })
    const receiver = await makeDevice({ id: crypto.randomUUID() })
    const { acceptance: acceptanceCode, offer: offerCode } = await signPair({
      giver,
      receiver,
      organizationId: ORG,
      keychainId: KEYCHAIN,
      at: 1700,
    })
    const parts = acceptanceCode.split('|')
    const withPart = (index: number, value: string) =>
      parts.map((part, i) => (i === index ? value : part)).join('|')
    expect(parseAcceptance(acceptanceCode)).not.toBeNull()
    expect(parseAcceptance(offerCode)).toBeNull()
    expect(parseOffer(acceptanceCode)).toBeNull()
    expect(parseAcceptance(withPart(0, 'TRH0'))).toBeNull()
    expect(parseAcceptance(withPart(1, 'O'))).toBeNull()
    expect(parseAcceptance(withPart(2, (parts[2] as string).slice(1)))).toBeNull()
    expect(parseAcceptance(withPart(2, `${(parts[2] as string).slice(0, 42)}=`))).toBeNull()
    expect(parseAcceptance(withPart(3, 'nope'))).toBeNull()
    expect(parseAcceptance(withPart(4, '01'))).toBeNull()
    expect(parseAcceptance(withPart(4, '-1'))).toBeNull()
    expect(parseAcceptance(withPart(4, '1.5'))).toBeNull()
    expect(parseAcceptance(withPart(3, `${parts[3]}0`))).toBeNull()
    expect(parseAcceptance(`${acceptanceCode}|x`)).toBeNull()
  })

  it('checks a signature against the key and the text it was made for only', async () => {
    const device = await makeDevice({ id: crypto.randomUUID() })
    const other = await makeDevice({ id: crypto.randomUUID() })
    const text = acceptanceText({ offerId: 'x'.repeat(43), receiverDeviceId: device.id, at: 1 })
    const signature = await signText(device.privateKey, text)
    expect(signature).toMatch(/^[A-Za-z0-9_-]{86}$/)
    expect(await verifyText(device.publicKey, text, signature)).toBe(true)
    expect(await verifyText(device.publicKey, `${text} `, signature)).toBe(false)
    expect(await verifyText(other.publicKey, text, signature)).toBe(false)
    expect(await verifyText(device.publicKey.slice(1), text, signature)).toBe(false)
    expect(await verifyText(device.publicKey, text, signature.slice(1))).toBe(false)
    expect(await verifyText(`${device.publicKey}AA`, text, signature)).toBe(false)
    // 65 bytes that are not a point on the curve: no key, no signature.
    expect(await verifyText(`B${'A'.repeat(86)}`, text, signature)).toBe(false)
    expect(signedCode('a', 'b')).toBe('a|b')
  })
})
