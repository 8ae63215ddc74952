import { describe, expect, it } from 'vitest'
import { ipBucket } from './ip-bucket.ts'

describe('ipBucket', () => {
  it('keeps IPv4 addresses whole', () => {
    expect(ipBucket('203.0.113.7')).toBe('203.0.113.7')
    expect(ipBucket('::ffff:203.0.113.7')).toBe('203.0.113.7')
  })

  it('groups IPv6 addresses by /64, however they are written', () => {
    const bucket = '2001:db8:aa:1::/64'
    expect(ipBucket('2001:db8:aa:1::1')).toBe(bucket)
    expect(ipBucket('2001:0DB8:00aa:0001:ffff:1:2:3')).toBe(bucket)
    expect(ipBucket('2001:db8:aa:1:0:0:0:9%eth0')).toBe(bucket)
    expect(ipBucket('2001:db8:aa:2::1')).not.toBe(bucket)
    expect(ipBucket('::1')).toBe('0:0:0:0::/64')
    expect(ipBucket('64:ff9b::192.0.2.33')).toBe('64:ff9b:0:0::/64')
  })

  it('leaves anything else as it is', () => {
    expect(ipBucket('unknown')).toBe('unknown')
  })
})
