import { randomBytes } from 'node:crypto'
import { gunzipSync } from 'node:zlib'
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { placeOrder, settleLocally, tagItem } from '../../tests/server/commerce.ts'
import { decodedBody } from '../../tests/server/decoded-body.ts'
import { organizationWithAdmin } from '../../tests/server/fixtures.ts'
import { setupTestApp } from '../../tests/server/harness.ts'
import { COMPRESSION_THRESHOLD, compressResponses } from './compression.ts'

const t = setupTestApp()

describe('API answer compression', () => {
  it('sends a large JSON answer gzip-encoded when asked, with Vary, and as it is when not', async () => {
    const plain = await t.get('/api/openapi.json')
    expect(plain.status).toBe(200)
    expect(plain.headers.get('content-encoding')).toBeNull()
    expect(plain.headers.get('vary')).toMatch(/accept-encoding/i)
    const document = await decodedBody(plain)
    expect(document.length).toBeGreaterThan(10 * COMPRESSION_THRESHOLD)

    const gzip = await t.get('/api/openapi.json', { headers: { 'accept-encoding': 'gzip' } })
    expect(gzip.status).toBe(200)
    expect(gzip.headers.get('content-encoding')).toBe('gzip')
    expect(gzip.headers.get('vary')).toMatch(/accept-encoding/i)
    expect(gzip.headers.get('content-type')).toMatch(/^application\/json/)
    expect(gzip.headers.get('cache-control')).toBe('no-store')
    expect(gzip.headers.get('content-security-policy')).toContain("default-src 'self'")
    expect(gzip.headers.get('x-content-type-options')).toBe('nosniff')
    expect(gzip.headers.get('x-request-id')).toBeTruthy()
    expect(Number(gzip.headers.get('content-length'))).toBeLessThan(document.length / 5)
    expect(await decodedBody(gzip)).toBe(document)

    const br = await t.get('/api/openapi.json', { headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } })
    expect(br.headers.get('content-encoding')).toBe('br')
    expect(await decodedBody(br)).toBe(document)
    const refused = await t.get('/api/openapi.json', { headers: { 'accept-encoding': 'br;q=0, gzip;q=0' } })
    expect(refused.headers.get('content-encoding')).toBeNull()
    expect(await decodedBody(refused)).toBe(document)
  })

  it('answers HEAD with the headers of the compressed GET', async () => {
    const headers = { 'accept-encoding': 'gzip' }
    const get = await t.get('/api/openapi.json', { headers })
    const head = await t.request('/api/openapi.json', { method: 'HEAD', headers })
    expect(head.headers.get('content-encoding')).toBe('gzip')
    expect(head.headers.get('content-length')).toBe(get.headers.get('content-length'))
    expect(await head.text()).toBe('')
  })

  it('leaves a small answer uncompressed', async () => {
    const response = await t.get('/api/health', { headers: { 'accept-encoding': 'gzip, deflate, br' } })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-encoding')).toBeNull()
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    expect(JSON.parse(await decodedBody(response)).status).toBeDefined()
  })

  it('compresses a large CSV export and keeps it an attachment', async () => {
    const { admin } = await organizationWithAdmin(t)
    const order = await placeOrder(t, admin.cookie, [tagItem(60, { alphaCode: 'GZP', name: 'Clés, bureau' })])
    await settleLocally(t, admin.cookie, order.id)
    const plain = await t.post(`/api/orders/${order.id}/tags-exports`, { cookie: admin.cookie, json: {} })
    const csv = await decodedBody(plain)
    expect(csv.length).toBeGreaterThan(COMPRESSION_THRESHOLD)
    const response = await t.post(`/api/orders/${order.id}/tags-exports`, {
      cookie: admin.cookie,
      json: {},
      headers: { 'accept-encoding': 'gzip, br' },
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-encoding')).toBe('br')
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="${order.reference}-tags.csv"`,
    )
    expect(await decodedBody(response)).toBe(csv)
  })
})

describe('compressResponses', () => {
  const big = 'x'.repeat(4 * COMPRESSION_THRESHOLD)
  const app = new Hono()
  app.use(compressResponses())
  app.get('/json', (c) => c.json({ big }, 200, { Vary: 'Origin', ETag: '"v1"' }))
  app.get('/small', (c) => c.json({ small: true }))
  app.get('/events', (c) => c.body(`data: ${big}\n\n`, 200, { 'Content-Type': 'text/event-stream' }))
  app.get('/encoded', (c) => c.body(big, 200, { 'Content-Type': 'text/plain', 'Content-Encoding': 'gzip' }))
  app.get('/no-transform', (c) => c.json({ big }, 200, { 'Cache-Control': 'no-store, no-transform' }))
  app.get('/png', (c) => c.body(big, 200, { 'Content-Type': 'image/png' }))
  app.get('/cookie', (c) => {
    c.header('Set-Cookie', 'a=1', { append: true })
    c.header('Set-Cookie', 'b=2', { append: true })
    return c.json({ big })
  })
  const gzip = { headers: { 'accept-encoding': 'gzip' } }

  it('appends to Vary, weakens a strong ETag and sets the Content-Length of the bytes sent', async () => {
    const response = await app.request('/json', gzip)
    expect(response.headers.get('content-encoding')).toBe('gzip')
    expect(response.headers.get('vary')).toBe('Origin, Accept-Encoding')
    expect(response.headers.get('etag')).toBe('W/"v1"')
    expect(JSON.parse(await decodedBody(response))).toEqual({ big })
  })

  it('keeps every Set-Cookie', async () => {
    const response = await app.request('/cookie', gzip)
    expect(response.headers.get('content-encoding')).toBe('gzip')
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2'])
  })

  /** An app whose CSV export makes its second part only once `gate` resolves. */
  function exporting(first: string, gate: Promise<void>) {
    const streamed = new Hono()
    streamed.use(compressResponses())
    let pulls = 0
    streamed.get('/export', (c) =>
      c.body(
        new ReadableStream<Uint8Array>({
          async pull(controller) {
            pulls += 1
            if (pulls === 1) return controller.enqueue(new TextEncoder().encode(first))
            await gate
            controller.enqueue(new TextEncoder().encode('\r\nthe end\r\n'))
            controller.close()
          },
        }),
        200,
        { 'Content-Type': 'text/csv; charset=utf-8' },
      ),
    )
    return streamed
  }

  it('compresses a CSV of unknown length as it is made, reading the source only as the client reads', async () => {
    // Random text barely compresses: the first part alone fills gzip's output.
    const first = randomBytes(192 * 1024).toString('base64')
    let clientHasBytes: () => void = () => {}
    const clientRead = new Promise<void>((resolve) => {
      clientHasBytes = resolve
    })
    // A middleware that read the whole body before sending would wait for ever for the second part.
    const response = await exporting(first, clientRead).request('/export', gzip)
    expect(response.headers.get('content-encoding')).toBe('gzip')
    expect(response.headers.get('content-length')).toBeNull()
    expect(response.headers.get('vary')).toBe('Accept-Encoding')
    const reader = response.body!.getReader()
    const head = await Promise.race([
      reader.read(),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no byte before the end')), 5000)),
    ])
    expect(head.done).toBe(false)
    const chunks = [head.value!]
    clientHasBytes()
    for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value)
    expect(String(gunzipSync(Buffer.concat(chunks)))).toBe(`${first}\r\nthe end\r\n`)

    const br = await exporting('a,b', Promise.resolve()).request('/export', {
      headers: { 'accept-encoding': 'gzip, br' },
    })
    expect(br.headers.get('content-encoding')).toBe('br')
    expect(await decodedBody(br)).toBe('a,b\r\nthe end\r\n')
  })

  it.each(['/small', '/events', '/encoded', '/no-transform', '/png'])('leaves %s as it is', async (path) => {
    const response = await app.request(path, gzip)
    expect(response.status).toBe(200)
    expect(response.headers.get('vary')).toBeNull()
    if (path === '/encoded') expect(response.headers.get('content-encoding')).toBe('gzip')
    else expect(response.headers.get('content-encoding')).toBeNull()
    const body = await response.text()
    expect(body.length).toBeGreaterThan(path === '/small' ? 0 : big.length - 1)
  })
})
