import { describe, expect, it } from 'vitest'
import { parseScanValue } from './scan-value.ts'

const ID = 'abcdefghij234567klmn'

describe('parseScanValue', () => {
  it.each([
    [`https://trousseau.example/tags/${ID}`, ID],
    [`http://localhost:3000/en/tags/${ID}/`, ID],
    [`HTTPS://OTHER.EXAMPLE/tags/${ID.toUpperCase()}`, ID],
    [`https://trousseau.example/tags/${ID}?utm=qr#x`, ID],
    [`  ${ID} `, ID],
    [ID.toUpperCase(), ID],
  ])('reads %s as a public id', (value, publicId) => {
    expect(parseScanValue(value)).toEqual({ kind: 'publicId', publicId })
  })

  it.each([
    ['AGC-00042', 'AGC-00042'],
    ['agc-00042', 'AGC-00042'],
    ['ab-12345', 'AB-12345'],
  ])('reads %s as a code', (value, code) => {
    expect(parseScanValue(value)).toEqual({ kind: 'code', code })
  })

  it.each([
    'https://trousseau.example/app/keychains',
    `https://trousseau.example/fr/tags/${ID}`,
    `https://trousseau.example/tags/${ID}/edit`,
    'AGCDE-00042',
    'AGC-042',
    'hello',
    'https://',
  ])('reads %s as nothing', (value) => {
    expect(parseScanValue(value)).toEqual({ kind: 'none' })
  })
})
