import { describe, expect, it } from 'vitest'
import { parseScanValue } from './scan-value.ts'

const ID = 'abcdefghijklmnopqrst'

describe('what a scanned or typed value names', () => {
  it.each([
    // QR URLs, from any host, in either language, with or without a trailing slash
    [`https://trousseau.example/tags/${ID}`, { kind: 'publicId', publicId: ID }],
    [`http://old.example:8080/tags/${ID}/`, { kind: 'publicId', publicId: ID }],
    [`https://trousseau.example/en/tags/${ID}`, { kind: 'publicId', publicId: ID }],
    [`HTTPS://TROUSSEAU.EXAMPLE/tags/${ID.toUpperCase()}`, { kind: 'publicId', publicId: ID }],
    [`  https://trousseau.example/tags/${ID}?from=qr  `, { kind: 'publicId', publicId: ID }],
    [
      `https://trousseau.example/tags/abcdefghijklmnopqrs2`,
      { kind: 'publicId', publicId: 'abcdefghijklmnopqrs2' },
    ],
    // URLs that are not a tag
    [`https://trousseau.example/fr/tags/${ID}`, { kind: 'none' }],
    [`https://trousseau.example/tags/${ID}/extra`, { kind: 'none' }],
    [`https://trousseau.example/x/tags/${ID}`, { kind: 'none' }],
    [`https://trousseau.example/tags/${ID}a`, { kind: 'none' }],
    [`https://trousseau.example/tags/abcdefghijklmnopqrs1`, { kind: 'none' }],
    ['https://', { kind: 'none' }],
    [`https://trousseau.example/tags/${ID.slice(1)}`, { kind: 'none' }],
    // Bare public ids, any case
    [ID, { kind: 'publicId', publicId: ID }],
    [` ${ID.toUpperCase()} `, { kind: 'publicId', publicId: ID }],
    [`${ID}a`, { kind: 'none' }],
    // Human codes, any case, 2 to 4 letters and 5 digits
    ['agc-00042', { kind: 'code', code: 'AGC-00042' }],
    [' AB-12345 ', { kind: 'code', code: 'AB-12345' }],
    ['abcd-99999', { kind: 'code', code: 'ABCD-99999' }],
    ['A-12345', { kind: 'none' }],
    ['ABCDE-12345', { kind: 'none' }],
    ['AGC-0042', { kind: 'none' }],
    ['AGC-000042', { kind: 'none' }],
    ['xyAGC-00042', { kind: 'none' }],
    ['AGC-00042x', { kind: 'none' }],
    ['AGC 00042', { kind: 'none' }],
    ['', { kind: 'none' }],
    [`ftp://trousseau.example/tags/${ID}`, { kind: 'none' }],
  ])('%j names %j', (value, target) => {
    expect(parseScanValue(value)).toEqual(target)
  })
})
