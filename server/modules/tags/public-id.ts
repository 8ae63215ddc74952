import { randomBytes } from 'node:crypto'

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567'
const PUBLIC_ID_LENGTH = 20

/** 20 base32 characters from the CSPRNG: 100 random bits (each byte's low 5 bits, uniform as 256 = 8 × 32). */
export function newPublicId(): string {
  const bytes = randomBytes(PUBLIC_ID_LENGTH)
  let id = ''
  for (const byte of bytes) id += BASE32[byte & 31]
  return id
}

/** `AGC-00042` */
export function tagCode(alphaCode: string, number: number): string {
  return `${alphaCode.toUpperCase()}-${String(number).padStart(5, '0')}`
}
