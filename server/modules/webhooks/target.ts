import { type LookupAddress, type LookupAllOptions, type LookupOneOptions, lookup } from 'node:dns'
import { BlockList, isIP } from 'node:net'

/**
 * Addresses a webhook may not reach unless WEBHOOK_ALLOW_PRIVATE_TARGETS (the default outside production):
 * loopback, private networks, link-local (cloud metadata at 169.254.169.254), shared, reserved and multicast
 * ranges, and their IPv6 forms. An admin could otherwise make the server call inside its own network (SSRF).
 */
const PRIVATE = new BlockList()
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 3],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv4')
}
for (const [network, prefix] of [
  ['::', 127],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv6')
}

/** Whether an IP address (v4, v6, or v4 mapped in v6) lies in a range a webhook may not reach. */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  if (mapped) return PRIVATE.check(mapped[1]!, 'ipv4')
  const family = isIP(address)
  if (family === 4) return PRIVATE.check(address, 'ipv4')
  if (family === 6) return PRIVATE.check(address, 'ipv6')
  return true
}

/** The URL's host without IPv6 brackets. */
export const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1')

/**
 * Refusal known from the URL alone (an IP literal or `localhost` in a private range), for the form's answer;
 * names are resolved, and refused the same way, at each attempt (a name may point anywhere later).
 */
export function refusedTarget(url: URL, allowPrivate: boolean): boolean {
  if (allowPrivate) return false
  const host = hostOf(url).toLowerCase()
  if (host === 'localhost' || host.endsWith('.localhost')) return true
  return isIP(host) !== 0 && isPrivateAddress(host)
}

export class TargetRefusedError extends Error {
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
