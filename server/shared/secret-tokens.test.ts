import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { keyedHash } from './secret-tokens.ts'

describe('keyedHash', () => {
  it('is HMAC-SHA256 of purpose NUL value under the secret: hashes stored before stay valid', () => {
    const secret = Buffer.from('test-secret-test-secret-test-secret-0123')
    const expected = createHmac('sha256', secret).update('session\0abc').digest('base64url')
    expect(keyedHash(secret, 'session', 'abc')).toBe(expected)
    expect(keyedHash(secret, 'session', 'abc')).toBe(expected)
  })

  it('keeps purposes and secrets apart', () => {
    const secret = Buffer.from('test-secret-test-secret-test-secret-0123')
    const other = Buffer.from('another-secret-another-secret-another-01')
    expect(keyedHash(secret, 'link', 'abc')).not.toBe(keyedHash(secret, 'code', 'abc'))
    expect(keyedHash(other, 'session', 'abc')).not.toBe(keyedHash(secret, 'session', 'abc'))
  })
})
