import { randomBytes } from 'node:crypto'
import { API_TOKEN_PATTERN } from '../../../contract/api-tokens.ts'
import { keyedHash } from '../../shared/secret-tokens.ts'

/** A new token: its prefix (48 random bits, hex: stored in clear to find it) and the whole token (256 more). */
export function newApiToken(): { prefix: string; token: string } {
  const prefix = randomBytes(6).toString('hex')
  return { prefix, token: `trs_${prefix}_${randomBytes(32).toString('base64url')}` }
}

/** The prefix of a well-formed token, or null (then no lookup is made). */
export function prefixOf(token: string): string | null {
  return API_TOKEN_PATTERN.exec(token)?.[1] ?? null
}

export function apiTokenHash(secret: Buffer, token: string): string {
  return keyedHash(secret, 'api-token', token)
}
