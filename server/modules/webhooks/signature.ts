import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'

/** A new signing secret: `whsec_` and 32 random bytes (base64url). The HMAC key is this whole string (UTF-8). */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64url')}`

/** Its last four characters, for the admin to tell secrets apart. */
export const secretHint = (secret: string) => `…${secret.slice(-4)}`

const hmacHex = (secret: string, timestamp: number, body: string) =>
  createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex')

/**
 * The `Trousseau-Signature` header of one attempt: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`.
 * The timestamp is the attempt's, so a retry carries a fresh one over the same body.
 */
export function signatureHeader(secret: string, body: string, timestamp: number): string {
  return `t=${timestamp},v1=${hmacHex(secret, timestamp, body)}`
}

/** Seconds a receiver should accept between the signature's `t` and its own clock (5 minutes, as Stripe's). */
const SIGNATURE_TOLERANCE_SECONDS = 300

/**
 * What a receiver does (the README shows it): split the header on `,` into `key=value` pairs, recompute the
 * HMAC over `"<t>.<raw body>"`, compare it in constant time with any `v1` (two during a rotation's overlap are
 * not sent, but a receiver may hold two secrets), and refuse a `t` further than the tolerance from now.
 */
export function verifyWebhookSignature(
  header: string,
  body: string,
  secret: string,
  nowSeconds: number,
  toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS,
): boolean {
  const pairs = header.split(',').map((part) => part.trim().split('=', 2) as [string, string | undefined])
  const timestamps = pairs.filter(([key]) => key === 't').map(([, value]) => value ?? '')
  if (timestamps.length !== 1 || !/^\d{1,12}$/.test(timestamps[0]!)) return false
  const timestamp = Number(timestamps[0])
  if (Math.abs(nowSeconds - timestamp) > toleranceSeconds) return false
  const expected = Buffer.from(hmacHex(secret, timestamp, body), 'utf8')
  return pairs.some(([key, value]) => {
    if (key !== 'v1' || value === undefined) return false
    const given = Buffer.from(value, 'utf8')
    return given.length === expected.length && timingSafeEqual(given, expected)
  })
}
