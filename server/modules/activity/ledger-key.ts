import { createHmac, createPrivateKey, createPublicKey, type KeyObject, sign } from 'node:crypto'
import { keyIdOf } from './signed-head.ts'

/** The Ed25519 key that signs the ledger's heads, and what the server publishes of it. */
export type LedgerKey = {
  /** The first 16 hex digits of the public key's SHA-256: names the key in every signed head. */
  keyId: string
  /** The raw 32-byte public key, base64url. */
  publicKey: string
  /** The same key as a PEM `PUBLIC KEY` (SPKI), for tools that take one. */
  pem: string
  /** The Ed25519 signature of `message` (UTF-8), base64url. */
  sign(message: string): string
}

/** PKCS #8 of an Ed25519 private key up to its 32-byte seed (RFC 8410). */
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex')
const keys = new WeakMap<Buffer, LedgerKey>()

/**
 * The ledger's signing key, derived from the server secret (SESSION_SECRET or `$DATA_DIR/secret.key`): every
 * process that shares the secret — as they must for sessions — signs with the same key, and the key is never in
 * the database, whose writers are whom a signed head holds to account. Changing the secret changes the key: the
 * heads signed before stay checkable with the public key published then (their `key=` names it).
 */
export function ledgerKeyOf(serverSecret: Buffer): LedgerKey {
  const known = keys.get(serverSecret)
  if (known) return known
  const seed = createHmac('sha256', serverSecret).update('trousseau ledger head signing v1').digest()
  const privateKey = createPrivateKey({
    key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  })
  const key = describe(privateKey)
  keys.set(serverSecret, key)
  return key
}

function describe(privateKey: KeyObject): LedgerKey {
  const publicKey = createPublicKey(privateKey)
  return {
    keyId: keyIdOf(publicKey),
    publicKey: publicKey.export({ format: 'jwk' }).x as string,
    pem: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
    sign: (message) => sign(null, Buffer.from(message, 'utf8'), privateKey).toString('base64url'),
  }
}
