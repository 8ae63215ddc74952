import { isIPv4, isIPv6 } from 'node:net'

/**
 * What a per-IP rate limit counts: the IPv4 address itself, but the /64 prefix of an IPv6 address (one
 * subscriber usually holds a whole /64 and can hop between its 2^64 addresses at will). IPv4-mapped IPv6
 * addresses count as their IPv4 address.
 */
export function ipBucket(ip: string): string {
  const address = ip.split('%')[0] ?? ip // drop an IPv6 zone id
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  if (mapped?.[1] && isIPv4(mapped[1])) return mapped[1]
  if (!isIPv6(address)) return address
  const groups = expandIpv6(address)
  return `${groups.slice(0, 4).join(':')}::/64`
}

/** Eight lower-case groups without leading zeros, e.g. `2001:db8:0:0:0:0:0:1`. */
function expandIpv6(address: string): string[] {
  let text = address.toLowerCase()
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1]
  if (dotted) {
    const [a, b, c, d] = dotted.split('.').map(Number) as [number, number, number, number]
    text = `${text.slice(0, -dotted.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [head = '', tail] = text.split('::')
  const left = head === '' ? [] : head.split(':')
  const right = tail === undefined || tail === '' ? [] : tail.split(':')
  const zeros = tail === undefined ? [] : Array(8 - left.length - right.length).fill('0')
  return [...left, ...zeros, ...right].map((group) => Number.parseInt(group, 16).toString(16))
}
