import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto'

/**
 * Webhook signing secrets must be read back to sign (a hash would not do), so they are stored sealed with
 * AES-256-GCM under a key derived from the server secret: a copy of the database alone does not give them.
 * Changing SESSION_SECRET makes them unreadable; their deliveries then fail with `secret_unreadable` until an
 * admin rotates the secret.
 */
const keyOf = (serverSecret: Buffer) =>
  createHmac('sha256', serverSecret).update('trousseau webhook secrets v1').digest()

export function sealSecret(serverSecret: Buffer, secret: string): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', keyOf(serverSecret), iv)
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()])
  return ['v1', iv, cipher.getAuthTag(), sealed]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.')
}

/** The secret, or null when it was sealed under another server secret (or the row was tampered with). */
export function openSecret(serverSecret: Buffer, box: string): string | null {
  const [version, iv, tag, sealed] = box.split('.')
  if (version !== 'v1' || !iv || !tag || sealed === undefined) return null
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(serverSecret), Buffer.from(iv, 'base64url'))
    decipher.setAuthTag(Buffer.from(tag, 'base64url'))
    return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString(
      'utf8',
    )
  } catch {
    return null
  }
}
