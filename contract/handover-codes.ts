/**
 * The three codes two phones exchange to hand a keychain over with no network, and their signatures.
 *
 * - The receiver shows a **receive code**: its device's fingerprint and a fresh random value, short enough to type
 *   (`R-XXXX-XXXX-XXXX-XXXX`, Crockford base32).
 * - The giver shows a signed **offer** naming the organization, the keychain, both people and devices, both random
 *   values, the last custody change it knows of (`base`) and its device time.
 * - The receiver shows a signed **acceptance** of that exact offer (by the offer's digest).
 *
 * Signatures are ECDSA P-256 with SHA-256 (WebCrypto's, in the browser, in Node and in the verifier alike), in
 * IEEE P1363 form (r‖s, 64 bytes), base64url; public keys are raw uncompressed points (65 bytes), base64url.
 * Every encoding here has one spelling only (strict decoding re-encodes and compares), so a changed character is
 * never the same code.
 */

const HANDOVER_FORMAT = 'TRH1'
export const DEVICE_KEY_ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256' } as const
const SIGNATURE_ALGORITHM = { name: 'ECDSA', hash: 'SHA-256' } as const
const SIGNATURE_BYTES = 64
const PUBLIC_KEY_BYTES = 65

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const WHOLE_NUMBER = /^(0|[1-9][0-9]{0,15})$/

// --- encodings ---------------------------------------------------------------------------------------------------

export function toBase64Url(bytes: Uint8Array): string {
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  // Stryker disable next-line Regex: btoa pads at the end only
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')
}

/** The bytes of a base64url text, or null when it is not the one spelling of some bytes. */
export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return null
  const binary = atob(text.replaceAll('-', '+').replaceAll('_', '/'))
  const bytes = Uint8Array.from(binary, (character) => character.charCodeAt(0))
  return toBase64Url(bytes) === text ? bytes : null
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'

/** Five bytes as eight Crockford base32 characters. */
export function toBase32(bytes: Uint8Array): string {
  let bits = 0
  let value = 0
  let text = ''
  for (const byte of bytes) {
    value = (value << 8) | byte
    bits += 8
    while (bits >= 5) {
      text += CROCKFORD[(value >>> (bits - 5)) & 31]
      bits -= 5
    }
  }
  return text
}

async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)))
}

/** A device's short name in receive codes: the first 40 bits of its public key's SHA-256. */
export async function fingerprintOf(publicKey: string): Promise<string> {
  return toBase32((await sha256(publicKey)).slice(0, 5))
}

/** A fresh random value for a receive code or an offer: 40 bits. */
export function freshNonce(): string {
  return toBase32(crypto.getRandomValues(new Uint8Array(5)))
}

// --- signatures ----------------------------------------------------------------------------------------------------

export async function signText(privateKey: CryptoKey, text: string): Promise<string> {
  const signature = await crypto.subtle.sign(SIGNATURE_ALGORITHM, privateKey, new TextEncoder().encode(text))
  return toBase64Url(new Uint8Array(signature))
}

/** Whether `signature` is the signature of `text` by the device whose raw public key is `publicKey`. */
export async function verifyText(publicKey: string, text: string, signature: string): Promise<boolean> {
  const keyBytes = fromBase64Url(publicKey)
  const signatureBytes = fromBase64Url(signature)
  // Stryker disable next-line ConditionalExpression,LogicalOperator: only spares the work; importKey refuses a key of another size and verify a signature of another size
  if (keyBytes?.length !== PUBLIC_KEY_BYTES || signatureBytes?.length !== SIGNATURE_BYTES) return false
  try {
    // Stryker disable next-line BooleanLiteral: a public key is public, extractable or not
    const key = await crypto.subtle.importKey('raw', keyBytes, DEVICE_KEY_ALGORITHM, false, ['verify'])
    return await crypto.subtle.verify(
      SIGNATURE_ALGORITHM,
      key,
      signatureBytes,
      new TextEncoder().encode(text),
    )
  } catch {
    return false
  }
}

/** The raw public key of a key pair, base64url: what a device registers and what codes are checked with. */
export async function exportPublicKey(publicKey: CryptoKey): Promise<string> {
  return toBase64Url(new Uint8Array(await crypto.subtle.exportKey('raw', publicKey)))
}

// --- the receive code ---------------------------------------------------------------------------------------------

export type ReceiveCode = { fingerprint: string; nonce: string }

export function formatReceiveCode({ fingerprint, nonce }: ReceiveCode): string {
  const body = fingerprint + nonce
  return `R-${body.slice(0, 4)}-${body.slice(4, 8)}-${body.slice(8, 12)}-${body.slice(12)}`
}

/** A receive code as scanned or typed: any case, with or without dashes and spaces, O for 0, I and L for 1. */
export function parseReceiveCode(input: string): ReceiveCode | null {
  const text = input.toUpperCase().replace(/[\s-]/g, '').replaceAll('O', '0').replace(/[IL]/g, '1')
  const match = /^R([0-9A-HJKMNP-TV-Z]{8})([0-9A-HJKMNP-TV-Z]{8})$/.exec(text)
  return match ? { fingerprint: match[1] as string, nonce: match[2] as string } : null
}

// --- the offer and the acceptance ----------------------------------------------------------------------------------

export type HandoverOffer = {
  organizationId: string
  keychainId: string
  giverId: string
  giverDeviceId: string
  receiverId: string
  receiverDeviceId: string
  receiverNonce: string
  giverNonce: string
  /** The sequence number of the last custody change the giver's phone knew of (0: none). */
  base: number
  /** The giver's device time, in milliseconds since 1970. */
  at: number
}

export type HandoverAcceptance = {
  /** The offer's digest (`offerIdOf`): the acceptance is of that exact offer. */
  offerId: string
  receiverDeviceId: string
  at: number
}

export type Signed<T> = { value: T; text: string; signature: string }

export function offerText(offer: HandoverOffer): string {
  return [
    HANDOVER_FORMAT,
    'O',
    offer.organizationId,
    offer.keychainId,
    offer.giverId,
    offer.giverDeviceId,
    offer.receiverId,
    offer.receiverDeviceId,
    offer.receiverNonce,
    offer.giverNonce,
    String(offer.base),
    String(offer.at),
  ].join('|')
}

export function acceptanceText(acceptance: HandoverAcceptance): string {
  return [HANDOVER_FORMAT, 'A', acceptance.offerId, acceptance.receiverDeviceId, String(acceptance.at)].join(
    '|',
  )
}

/** The offer's identity: the base64url SHA-256 of its text (never of its signature, which is not unique). */
export async function offerIdOf(text: string): Promise<string> {
  return toBase64Url(await sha256(text))
}

const isNonce = (text: string) => /^[0-9A-HJKMNP-TV-Z]{8}$/.test(text)

/** The code's fields when it has as many as its kind; its format and kind are checked by its one spelling. */
function signedParts(code: string, fields: number): string[] | null {
  const parts = code.split('|')
  return parts.length === fields + 1 ? parts : null
}

/** A scanned offer, or null when it is not one, spelled exactly as `offerText` writes it. */
export function parseOffer(code: string): Signed<HandoverOffer> | null {
  const parts = signedParts(code, 12)
  if (!parts) return null
  const [, , organizationId, keychainId, giverId, giverDeviceId, receiverId, receiverDeviceId] =
    parts as string[]
  const [receiverNonce, giverNonce, base, at, signature] = parts.slice(8) as string[]
  const ids = [organizationId, keychainId, giverId, giverDeviceId, receiverId, receiverDeviceId] as string[]
  if (
    !ids.every((id) => UUID.test(id)) ||
    !isNonce(receiverNonce as string) ||
    !isNonce(giverNonce as string)
  ) {
    return null
  }
  if (!WHOLE_NUMBER.test(base as string) || !WHOLE_NUMBER.test(at as string)) return null
  const value: HandoverOffer = {
    organizationId: organizationId as string,
    keychainId: keychainId as string,
    giverId: giverId as string,
    giverDeviceId: giverDeviceId as string,
    receiverId: receiverId as string,
    receiverDeviceId: receiverDeviceId as string,
    receiverNonce: receiverNonce as string,
    giverNonce: giverNonce as string,
    base: Number(base),
    at: Number(at),
  }
  const text = offerText(value)
  return signedCode(text, signature as string) === code
    ? { value, text, signature: signature as string }
    : null
}

/** A scanned acceptance, or null when it is not one. */
export function parseAcceptance(code: string): Signed<HandoverAcceptance> | null {
  const parts = signedParts(code, 5)
  if (!parts) return null
  const [, , offerId, receiverDeviceId, at, signature] = parts as string[]
  if (fromBase64Url(offerId as string)?.length !== 32 || !UUID.test(receiverDeviceId as string)) return null
  if (!WHOLE_NUMBER.test(at as string)) return null
  const value = { offerId: offerId as string, receiverDeviceId: receiverDeviceId as string, at: Number(at) }
  const text = acceptanceText(value)
  return signedCode(text, signature as string) === code
    ? { value, text, signature: signature as string }
    : null
}

export const signedCode = (text: string, signature: string) => `${text}|${signature}`
