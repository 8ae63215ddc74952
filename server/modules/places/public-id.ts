import { randomBytes } from 'node:crypto'

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567'

/**
 * A board's, cabinet's or hook's public id (`LOCATION_PUBLIC_ID_PATTERN`): 16 base32 characters from the
 * CSPRNG, 80 random bits (each byte's low 5 bits, uniform as 256 = 8 × 32). Short, so that a hook's QR stays
 * legible on a 12 mm label.
 */
export function newLocationPublicId(): string {
  let id = ''
  for (const byte of randomBytes(16)) id += BASE32[byte & 31]
  return id
}
