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

describe('isPrivateAddress', () => {
  it.each([
    ['127.0.0.1', true],
    ['10.20.30.40', true],
    ['172.16.0.1', true],
    ['172.32.0.1', false],
    ['192.168.1.1', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['0.0.0.0', true],
    ['224.0.0.1', true],
    ['::1', true],
    ['::', true],
    ['fd12::1', true],
    ['fe80::1', true],
    ['::ffff:127.0.0.1', true],
    ['::ffff:8.8.8.8', false],
    ['8.8.8.8', false],
    ['2606:4700::1111', false],
    ['not an address', true],
  ])('%s → %s', (address, expected) => {
    expect(isPrivateAddress(address)).toBe(expected)
  })
})

describe('refusedTarget', () => {
  it('refuses loopback and private literals and localhost only when private targets are not allowed', () => {
    expect(refusedTarget(new URL('https://10.0.0.1/x'), false)).toBe(true)
    expect(refusedTarget(new URL('https://api.localhost/x'), false)).toBe(true)
    expect(refusedTarget(new URL('https://[::1]/x'), false)).toBe(true)
    expect(refusedTarget(new URL('https://hooks.example.com/x'), false)).toBe(false)
    expect(refusedTarget(new URL('https://10.0.0.1/x'), true)).toBe(false)
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

  it('refuses a private target before connecting when not allowed, and reports refused connections', async () => {
    const server = await serve((_request, response) => response.writeHead(204).end())
    try {
      expect(await postWebhook(server.url, '{}', { ...options, allowPrivate: false })).toMatchObject({
        statusCode: null,
        error: 'target_refused',
      })
      expect(
        await postWebhook('http://localhost:9/hook', '{}', { ...options, allowPrivate: false }),
      ).toMatchObject({ error: 'target_refused' })
      expect(server.requests).toEqual([])
      expect(await postWebhook('http://127.0.0.1:9/hook', '{}', options)).toMatchObject({
        statusCode: null,
        error: 'connection_failed',
      })
    } finally {
      await server.close()
    }
  })
})
