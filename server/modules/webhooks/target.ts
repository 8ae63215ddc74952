import { type LookupAddress, type LookupAllOptions, type LookupOneOptions, lookup } from 'node:dns'
import { BlockList, isIP } from 'node:net'

/**
 * IPv4 addresses a webhook may not reach unless WEBHOOK_ALLOW_PRIVATE_TARGETS=true: every range of IANA's IPv4
 * Special-Purpose Address Registry that is not globally reachable, and multicast. An admin could otherwise
 * make the server call inside its own network (SSRF), the cloud metadata at 169.254.169.254 first.
 */
const REFUSED_IPV4 = subnets('ipv4', [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // shared address space (carrier-grade NAT)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation (TEST-NET-1)
  ['192.88.99.0', 24], // 6to4 relay anycast (deprecated)
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation (TEST-NET-2)
  ['203.0.113.0', 24], // documentation (TEST-NET-3)
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, with the limited broadcast 255.255.255.255
])

/**
 * IPv6 forms that carry an IPv4 address: the address they lead to is that IPv4 one, checked against the list
 * above (a public one passes). `high` is the index of the 16-bit group where the IPv4 address starts.
 * Teredo carries two: its server's in the clear, its client's inverted (RFC 4380).
 */
const EMBEDDING_IPV4: ReadonlyArray<{ prefix: [string, number]; high: number; inverted?: true }> = [
  { prefix: ['::ffff:0:0', 96], high: 6 }, // IPv4-mapped
  { prefix: ['::', 96], high: 6 }, // IPv4-compatible (deprecated; holds :: and ::1, i.e. 0.0.0.0 and 0.0.0.1)
  { prefix: ['::ffff:0:0:0', 96], high: 6 }, // IPv4-translated (RFC 2765)
  { prefix: ['64:ff9b::', 96], high: 6 }, // NAT64 well-known prefix
  { prefix: ['2002::', 16], high: 1 }, // 6to4
  { prefix: ['2001::', 32], high: 2 }, // Teredo server
  { prefix: ['2001::', 32], high: 6, inverted: true }, // Teredo client
]
const EMBEDDINGS = EMBEDDING_IPV4.map((embedding) => ({
  ...embedding,
  list: subnets('ipv6', [embedding.prefix]),
}))

/**
 * IPv6 addresses refused outright: every range of IANA's IPv6 Special-Purpose Address Registry that is not
 * globally reachable and does not carry an IPv4 address, multicast, and what lies outside 2000::/3 (the one
 * block allocated for global unicast).
 */
const REFUSED_IPV6 = subnets('ipv6', [
  ['64:ff9b:1::', 48], // local-use NAT64: where the IPv4 address sits is the local network's choice (RFC 8215)
  ['100::', 64], // discard-only
  ['100:0:0:1::', 64], // dummy prefix (RFC 9780)
  ['2001::', 23], // IETF protocol assignments, benchmarking 2001:2::/48, ORCHID (Teredo is decoded first)
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation
  ['5f00::', 16], // segment routing (SRv6) SIDs
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
  ['::', 3], // outside global unicast
  ['4000::', 2],
  ['8000::', 1],
])

function subnets(type: 'ipv4' | 'ipv6', ranges: ReadonlyArray<readonly [string, number]>): BlockList {
  const list = new BlockList()
  for (const [network, prefix] of ranges) list.addSubnet(network, prefix, type)
  return list
}

/** The eight 16-bit groups of an IPv6 address, read from the URL parser's canonical form (hex, one `::`). */
function groupsOf(address: string): number[] {
  const canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1)
  const [head = '', tail] = canonical.split('::')
  const left = head ? head.split(':') : []
  const right = tail ? tail.split(':') : []
  const zeros = Array.from({ length: 8 - left.length - right.length }, () => '0')
  return [...left, ...zeros, ...right].map((group) => Number.parseInt(group, 16))
}

const ipv4Of = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`

/** Whether an IPv6 address lies in a refused range, or carries an IPv4 address that does. */
function isRefusedIpv6(address: string): boolean {
  const carriers = EMBEDDINGS.filter((embedding) => embedding.list.check(address, 'ipv6'))
  if (carriers.length === 0) return REFUSED_IPV6.check(address, 'ipv6')
  const groups = groupsOf(address)
  return carriers.some(({ high, inverted }) => {
    const mask = inverted ? 0xffff : 0
    return REFUSED_IPV4.check(ipv4Of(groups[high]! ^ mask, groups[high + 1]! ^ mask), 'ipv4')
  })
}

/** Whether an IP address (v4 or v6, a zone index ignored) lies in a range a webhook may not reach; not an IP is. */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/%.*$/, '')
  const family = isIP(bare)
  if (family === 4) return REFUSED_IPV4.check(bare, 'ipv4')
  if (family === 6) return isRefusedIpv6(bare)
  return true
}

/** The URL's host without IPv6 brackets. */
export const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1')

/**
 * Refusal known from the URL alone (an IP literal or `localhost` in a private range), for the form's answer;
 * names are resolved, and refused the same way, at each attempt (a name may point anywhere later). A name is
 * never resolved for the form: its answer would tell whether it exists inside the server's network.
 */
export function refusedTarget(url: URL, allowPrivate: boolean): boolean {
  if (allowPrivate) return false
  const host = hostOf(url).toLowerCase().replace(/\.$/, '')
  if (host === 'localhost' || host.endsWith('.localhost')) return true
  return isIP(host) !== 0 && isPrivateAddress(host)
}

class TargetRefusedError extends Error {
  readonly code = 'ETARGETREFUSED'
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void

/**
 * A `lookup` for the outgoing request that resolves every address of the name and refuses the connection when
 * one is private: the address checked is the address connected to (no second resolution to rebind).
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: LookupOneOptions | LookupAllOptions, callback: LookupCallback) => {
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, [])
      if (!allowPrivate && addresses.some((entry) => isPrivateAddress(entry.address))) {
        return callback(new TargetRefusedError('The address resolves to a private network.'), [])
      }
      if (options.all) return callback(null, addresses)
      const [first] = addresses
      if (!first) return callback(Object.assign(new Error('No address.'), { code: 'ENOTFOUND' }), [])
      return callback(null, first.address, first.family)
    })
  }
}
