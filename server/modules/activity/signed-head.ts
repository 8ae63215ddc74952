import { createHash, createPublicKey, type KeyObject, verify } from 'node:crypto'

/**
 * A signed head of an organization's ledger: "at `signedAt`, entry `seq` of this organization's log had the chain
 * hash `hash`" (an empty log: seq 0, hash ''), signed by the server's ledger key. Since each hash covers the one
 * before it, a head vouches for every entry up to `seq`: a log rewritten or cut at or before `seq` afterwards no
 * longer reaches it. Written as one line of text (the `token`) that exports, receipts and the activity screen
 * carry and `npm run verify:activity` reads; only the part before ` key=` is signed.
 */
export type SignedHead = {
  organizationId: string
  seq: number
  hash: string
  signedAt: string
  keyId: string
  signature: string
  token: string
}

const PREFIX = 'trousseau-ledger-head/1'

/** The signed text. */
function headStatement(head: Pick<SignedHead, 'organizationId' | 'seq' | 'hash' | 'signedAt'>): string {
  return `${PREFIX} organization=${head.organizationId} seq=${head.seq} hash=${head.hash} signed_at=${head.signedAt}`
}

export function signHead(
  head: Pick<SignedHead, 'organizationId' | 'seq' | 'hash' | 'signedAt'>,
  key: { keyId: string; sign(message: string): string },
): SignedHead {
  const statement = headStatement(head)
  const signature = key.sign(statement)
  return {
    ...head,
    keyId: key.keyId,
    signature,
    token: `${statement} key=${key.keyId} signature=${signature}`,
  }
}

const TOKEN =
  /^trousseau-ledger-head\/1 organization=([0-9a-f-]{36}) seq=(\d{1,15}) hash=([0-9a-f]{64})? signed_at=(\S+) key=([0-9a-f]{16}) signature=([A-Za-z0-9_-]{86})$/

/** The head a token states, or null when it is not one (its signature is not checked here). */
export function parseSignedHead(token: string): SignedHead | null {
  const match = TOKEN.exec(token.trim().replace(/\s+/g, ' '))
  if (!match) return null
  const [, organizationId, seq, hash, signedAt, keyId, signature] = match as unknown as string[]
  return {
    organizationId: organizationId!,
    seq: Number(seq),
    hash: hash ?? '',
    signedAt: signedAt!,
    keyId: keyId!,
    signature: signature!,
    token: `${headStatement({ organizationId: organizationId!, seq: Number(seq), hash: hash ?? '', signedAt: signedAt! })} key=${keyId} signature=${signature}`,
  }
}

/** A public key as the server publishes it: the raw 32 bytes in base64url, or a PEM `PUBLIC KEY`. */
export function publicKeyFrom(text: string): KeyObject {
  const trimmed = text.trim()
  if (trimmed.startsWith('-----BEGIN')) return createPublicKey(trimmed)
  if (!/^[A-Za-z0-9_-]{43}$/.test(trimmed)) throw new Error('not an Ed25519 public key (base64url or PEM)')
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: trimmed }, format: 'jwk' })
}

/** The key id a public key goes by in signed heads. */
export function keyIdOf(publicKey: KeyObject): string {
  const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x as string, 'base64url')
  return createHash('sha256').update(raw).digest('hex').slice(0, 16)
}

/** Whether `head` was signed by `publicKey` (its key id and its signature). */
export function headSignedBy(head: SignedHead, publicKey: KeyObject): boolean {
  if (head.keyId !== keyIdOf(publicKey)) return false
  return verify(
    null,
    Buffer.from(headStatement(head), 'utf8'),
    publicKey,
    Buffer.from(head.signature, 'base64url'),
  )
}
