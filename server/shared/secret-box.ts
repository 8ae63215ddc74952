import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto'

/**
 * Secrets the server must read back (a hash would not do) — webhook signing secrets, identity providers' client
 * secrets — are stored sealed with AES-256-GCM under a key derived from the server secret for each use: a copy
 * of the database alone does not give them. Changing SESSION_SECRET makes them unreadable (a webhook's deliveries
 * then fail with `secret_unreadable`, an identity provider's sign-in with `unreachable`, until an admin sets the
 * secret again).
 */
export type SealedUse = 'webhook' | 'identity-provider'

const keyOf = (serverSecret: Buffer, use: SealedUse) =>
  createHmac('sha256', serverSecret)
    .update(use === 'webhook' ? 'trousseau webhook secrets v1' : `trousseau ${use} secrets v1`)
    .digest()

export function sealSecret(serverSecret: Buffer, secret: string, use: SealedUse = 'webhook'): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', keyOf(serverSecret, use), iv)
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()])
  return ['v1', iv, cipher.getAuthTag(), sealed]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.')
}

/** The secret, or null when it was sealed under another server secret (or the row was tampered with). */
export function openSecret(serverSecret: Buffer, box: string, use: SealedUse = 'webhook'): string | null {
  const [version, iv, tag, sealed] = box.split('.')
  if (version !== 'v1' || !iv || !tag || sealed === undefined) return null
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(serverSecret, use), Buffer.from(iv, 'base64url'))
    decipher.setAuthTag(Buffer.from(tag, 'base64url'))
    return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString(
      'utf8',
    )
  } catch {
    return null
  }
}
