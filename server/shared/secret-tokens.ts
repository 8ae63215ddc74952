import {
  createHmac,
  createSecretKey,
  type KeyObject,
  randomBytes,
  randomInt,
  timingSafeEqual,
} from 'node:crypto'

/** 32 random bytes, base64url: 43 characters, 256 bits. */
export function newLinkToken(): string {
  return randomBytes(32).toString('base64url')
}

/** 256 random bits; the cookie holds it, the database only its keyed hash. */
export function newSessionId(): string {
  return randomBytes(32).toString('base64url')
}

/** Six digits from the CSPRNG, leading zeros kept. */
export function newSignInCode(): string {
  return randomInt(0, 1_000_000).toString().padStart(6, '0')
}

export type HashPurpose = 'session' | 'link' | 'code' | 'calendar' | 'api-token' | 'oidc-state'

/** HMAC-SHA256 under the server secret; the purpose keeps a value hashed for one use from matching another. */
export function keyedHash(secret: Buffer, purpose: HashPurpose, value: string): string {
  return createHmac('sha256', keyOf(secret)).update(`${purpose}\0${value}`).digest('base64url')
}

/** The secret as a key object, made once per secret (every request hashes its session id with it). */
const keys = new WeakMap<Buffer, KeyObject>()
function keyOf(secret: Buffer): KeyObject {
  let key = keys.get(secret)
  if (!key) {
    key = createSecretKey(secret)
    keys.set(secret, key)
  }
  return key
}

export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}
