import { describe, expect, it } from 'vitest'
import { negotiateEncoding, parseAcceptEncoding } from './static-file.ts'

describe('Accept-Encoding negotiation', () => {
  it('reads codings and q-values, case-insensitively, dropping malformed q-values', () => {
    expect([
      ...parseAcceptEncoding('gzip, deflate, BR;q=0.8, identity; q=0, *;q=0.1, x-gzip;Q=0.5, zstd;q=2'),
    ]).toEqual([
      ['gzip', 1],
      ['deflate', 1],
      ['br', 0.8],
      ['identity', 0],
      ['*', 0.1],
    ])
  })

  it.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['gzip, deflate, br', 'br'],
    ['gzip, deflate', 'gzip'],
    ['br;q=0', 'identity'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0, gzip;q=0', 'identity'],
    ['br;q=0.5, gzip;q=0.9', 'gzip'],
    ['gzip;q=0.5', 'gzip'],
    ['gzip;q=0.5, identity', 'identity'],
    ['*', 'br'],
    ['*;q=0', 'identity'],
    ['*;q=0, gzip', 'gzip'],
    ['identity;q=0', 'identity'],
    ['identity;q=0, gzip;q=0.1', 'gzip'],
    ['deflate, zstd', 'identity'],
    ['x-gzip', 'gzip'],
  ])('%j with br and gzip available: %s', (header, coding) => {
    expect(negotiateEncoding(header, ['br', 'gzip'])).toBe(coding)
  })

  it('chooses only among the variants that exist', () => {
    expect(negotiateEncoding('br, gzip', ['gzip'])).toBe('gzip')
    expect(negotiateEncoding('br', ['gzip'])).toBe('identity')
    expect(negotiateEncoding('gzip, br', [])).toBe('identity')
  })
})
