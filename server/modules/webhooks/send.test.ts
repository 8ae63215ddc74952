import { createServer, type RequestListener } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { postWebhook, RESPONSE_BODY_CAP_BYTES } from './send.ts'
import { guardedLookup, isPrivateAddress, refusedTarget } from './target.ts'

async function serve(listener: RequestListener) {
  const requests: string[] = []
  const server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`)
    listener(request, response)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hook`,
    requests,
    close: () => {
      server.closeAllConnections()
      return new Promise((resolve) => server.close(resolve))
    },
  }
}

const options = { timeoutMs: 2000, allowPrivate: true, headers: { 'trousseau-event': 'webhook.test' } }

/** Public addresses a webhook may reach, each in or beside a refused range. */
const REACHABLE = [
  ['8.8.8.8', 'public IPv4'],
  ['9.255.255.255', 'just below 10/8'],
  ['11.0.0.0', 'just above 10/8'],
  ['100.63.255.255', 'just below 100.64/10'],
  ['100.128.0.0', 'just above 100.64/10'],
  ['169.253.255.255', 'just below 169.254/16'],
  ['172.15.255.255', 'just below 172.16/12'],
  ['172.32.0.1', 'just above 172.16/12'],
  ['192.0.1.1', 'between 192.0.0/24 and 192.0.2/24'],
  ['192.167.255.255', 'just below 192.168/16'],
  ['198.17.255.255', 'just below 198.18/15'],
  ['198.20.0.0', 'just above 198.18/15'],
  ['223.255.255.255', 'just below multicast'],
  ['2606:4700::1111', 'public IPv6'],
  ['2a00:1450:4007:80f::200e', 'public IPv6'],
  ['2001:200::1', 'just above 2001::/23'],
  ['2001:db9::1', 'just above 2001:db8::/32'],
  ['::ffff:8.8.8.8', 'IPv4-mapped, public inside'],
  ['::ffff:808:808', 'IPv4-mapped in hex, public inside'],
  ['::8.8.8.8', 'IPv4-compatible, public inside'],
  ['::ffff:0:8.8.8.8', 'IPv4-translated, public inside'],
  ['64:ff9b::8.8.8.8', 'NAT64 well-known prefix, public inside'],
  ['2002:808:808::1', '6to4, public inside'],
  ['2001:0:808:808::f7f7:f7f7', 'Teredo, public server and client (8.8.8.8)'],
] as const

/** Addresses a webhook may not reach, one or more per special-purpose range and per way to embed IPv4. */
const REFUSED = [
  ['0.0.0.0', 'this network 0/8'],
  ['0.255.255.255', 'this network 0/8'],
  ['10.0.0.1', 'private 10/8'],
  ['100.64.0.1', 'shared (CGNAT) 100.64/10'],
  ['100.127.255.255', 'shared (CGNAT) 100.64/10'],
  ['127.0.0.1', 'loopback 127/8'],
  ['127.255.255.254', 'loopback 127/8'],
  ['169.254.169.254', 'link-local 169.254/16 (cloud metadata)'],
  ['172.16.0.1', 'private 172.16/12'],
  ['172.31.255.255', 'private 172.16/12'],
  ['192.0.0.8', 'IETF protocol assignments 192.0.0/24'],
  ['192.0.2.1', 'documentation 192.0.2/24'],
  ['192.88.99.1', '6to4 relay anycast 192.88.99/24'],
  ['192.168.1.1', 'private 192.168/16'],
  ['198.18.0.1', 'benchmarking 198.18/15'],
  ['198.19.255.255', 'benchmarking 198.18/15'],
  ['198.51.100.7', 'documentation 198.51.100/24'],
  ['203.0.113.7', 'documentation 203.0.113/24'],
  ['224.0.0.1', 'multicast 224/4'],
  ['239.255.255.250', 'multicast 224/4'],
  ['240.0.0.1', 'reserved 240/4'],
  ['255.255.255.255', 'limited broadcast'],
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
  ['::ffff:7f00:1', 'IPv4-mapped loopback in hex'],
  ['::ffff:169.254.169.254', 'IPv4-mapped link-local'],
  ['::127.0.0.1', 'IPv4-compatible loopback'],
  ['::10.0.0.1', 'IPv4-compatible private'],
  ['::ffff:0:10.0.0.1', 'IPv4-translated private'],
  ['64:ff9b::127.0.0.1', 'NAT64 well-known prefix, loopback inside'],
  ['64:ff9b::a9fe:a9fe', 'NAT64 well-known prefix, link-local inside'],
  ['64:ff9b:1::8.8.8.8', 'local-use NAT64 64:ff9b:1::/48, whatever inside'],
  ['2002:7f00:1::', '6to4, loopback inside'],
  ['2002:c0a8:101::1', '6to4, 192.168.1.1 inside'],
  ['2001:0:808:808::80ff:fefe', 'Teredo, client 127.0.1.1 (inverted)'],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo, client 192.0.2.45 (RFC 4380’s example)'],
  ['2001:0:a00:1::f7f7:f7f7', 'Teredo, server 10.0.0.1'],
  ['100::1', 'discard-only 100::/64'],
  ['100:0:0:1::1', 'dummy prefix 100:0:0:1::/64'],
  ['2001:2::1', 'benchmarking 2001:2::/48'],
  ['2001:10::1', 'ORCHID 2001:10::/28'],
  ['2001:db8::1', 'documentation 2001:db8::/32'],
  ['3fff::1', 'documentation 3fff::/20'],
  ['5f00::1', 'SRv6 SIDs 5f00::/16'],
  ['fc00::1', 'unique local fc00::/7'],
  ['fd12:3456::1', 'unique local fc00::/7'],
  ['fe80::1', 'link-local fe80::/10'],
  ['fe80::1%eth0', 'link-local with a zone'],
  ['fec0::1', 'site-local fec0::/10'],
  ['ff02::1', 'multicast ff00::/8'],
  ['1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'unallocated, outside 2000::/3'],
  ['4000::1', 'unallocated, outside 2000::/3'],
  ['not an address', 'not an IP'],
] as const

describe('isPrivateAddress', () => {
  it.each(REACHABLE)('lets %s through (%s)', (address) => {
    expect(isPrivateAddress(address)).toBe(false)
  })
  it.each(REFUSED)('refuses %s (%s)', (address) => {
    expect(isPrivateAddress(address)).toBe(true)
  })
  it('reads an address with a zone index without it', () => {
    expect(isPrivateAddress('fe80::1%eth0')).toBe(true)
    expect(isPrivateAddress('2606:4700:4700::1111%eth0')).toBe(false)
  })
})

describe('refusedTarget', () => {
  it('refuses loopback and private literals and localhost only when private targets are not allowed', () => {
    for (const url of [
      'https://10.0.0.1/x',
      'https://api.localhost/x',
      'https://localhost./x',
      'https://[::1]/x',
      'https://2130706433/x',
      'https://0x7f.1/x',
      'https://[::ffff:127.0.0.1]/x',
      'https://[64:ff9b::a9fe:a9fe]/x',
      'https://[2002:a00:1::]/x',
    ]) {
      expect(refusedTarget(new URL(url), false), url).toBe(true)
      expect(refusedTarget(new URL(url), true), url).toBe(false)
    }
    expect(refusedTarget(new URL('https://hooks.example.com/x'), false)).toBe(false)
    expect(refusedTarget(new URL('https://[2002:808:808::1]/x'), false)).toBe(false)
  })
})

describe('guardedLookup', () => {
  it('refuses a name that resolves to a private address, and passes it when allowed', async () => {
    const lookup = (allow: boolean) =>
      new Promise<{ error: NodeJS.ErrnoException | null; address: unknown }>((resolve) =>
        guardedLookup(allow)('localhost', { all: true }, (error, address) => resolve({ error, address })),
      )
    expect((await lookup(false)).error?.code).toBe('ETARGETREFUSED')
    const allowed = await lookup(true)
    expect(allowed.error).toBeNull()
    expect(allowed.address).toEqual(
      expect.arrayContaining([expect.objectContaining({ family: expect.any(Number) })]),
    )
  })

  it('answers one address and its family unless all are asked for, and passes a resolution error on', async () => {
    const lookup = (hostname: string, all: boolean) =>
      new Promise<{ error: NodeJS.ErrnoException | null; address: unknown; family: unknown }>((resolve) =>
        guardedLookup(false)(hostname, { all }, (error, address, family) =>
          resolve({ error, address, family }),
        ),
      )
    expect(await lookup('8.8.8.8', false)).toEqual({ error: null, address: '8.8.8.8', family: 4 })
    expect(await lookup('8.8.8.8', true)).toEqual({
      error: null,
      address: [{ address: '8.8.8.8', family: 4 }],
      family: undefined,
    })
    const missing = await lookup('no-such-name.invalid', false)
    expect(missing.error?.code).toMatch(/^(ENOTFOUND|EAI_AGAIN)$/)
    expect(missing.address).toEqual([])
  })
})

describe('postWebhook', () => {
  it('does not follow a redirect: a 3xx is a failed attempt', async () => {
    const server = await serve((_request, response) =>
      response.writeHead(302, { location: '/elsewhere' }).end(),
    )
    try {
      expect(await postWebhook(server.url, '{}', options)).toMatchObject({
        statusCode: 302,
        error: 'redirect',
      })
      expect(server.requests).toEqual(['POST /hook'])
    } finally {
      await server.close()
    }
  })

  it('reads at most the cap of an endless answer, and counts its 2xx', async () => {
    let written = 0
    const server = await serve((_request, response) => {
      response.writeHead(200)
      const chunk = Buffer.alloc(16 * 1024, 'x')
      const pump = () => {
        while (written < 10 * RESPONSE_BODY_CAP_BYTES && response.write(chunk)) written += chunk.length
      }
      response.on('drain', pump)
      pump()
    })
    try {
      const result = await postWebhook(server.url, '{}', options)
      expect(result).toMatchObject({ statusCode: 200, error: null })
      expect(result.durationMs).toBeLessThan(options.timeoutMs)
    } finally {
      await server.close()
    }
  })

  it('refuses a private target before connecting when not allowed, in the connection’s own lookup', async () => {
    const server = await serve((_request, response) => response.writeHead(204).end())
    try {
      const strict = { ...options, allowPrivate: false }
      expect(await postWebhook(server.url, '{}', strict)).toMatchObject({ statusCode: null })
      const byName = server.url.replace('127.0.0.1', 'localhost')
      expect(await postWebhook(byName, '{}', strict)).toMatchObject({ statusCode: null })
      expect(server.requests).toEqual([])
      expect(await postWebhook(byName, '{}', options)).toMatchObject({ statusCode: 204, error: null })
      expect(server.requests).toEqual(['POST /hook'])
    } finally {
      await server.close()
    }
  })

  it('answers a refused private target exactly as a failed connection or a name that does not exist', async () => {
    const strict = { ...options, allowPrivate: false }
    const answers = await Promise.all([
      postWebhook('http://localhost:9/hook', '{}', strict),
      postWebhook('http://127.0.0.1:9/hook', '{}', strict),
      postWebhook('http://[::ffff:10.0.0.1]:9/hook', '{}', strict),
      postWebhook('http://no-such-host.invalid:9/hook', '{}', strict),
      postWebhook('http://127.0.0.1:9/hook', '{}', options),
    ])
    for (const answer of answers) {
      expect(Object.keys(answer).sort()).toEqual(['durationMs', 'error', 'statusCode'])
      expect(answer).toMatchObject({ statusCode: null, error: 'connection_failed' })
    }
  })
})
