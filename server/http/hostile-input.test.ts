// The inputs that made the API answer 500 once (issue 15): each must now be a 4xx with a code and a message,
// or an ordinary answer, on both databases.
import { beforeAll, describe, expect, it } from 'vitest'
import { TAG_CONFIGURATION } from '../../tests/server/fixtures.ts'
import { setupTestApp } from '../../tests/server/harness.ts'
import { pickup, scheduledTransfer } from '../../tests/server/transfers.ts'
import { IMPORT_MAX_BODY_BYTES, MAX_BODY_BYTES } from './request-guards.ts'
import { JSON_MAX_DEPTH } from './validate.ts'

const t = setupTestApp()
let world: Awaited<ReturnType<typeof scheduledTransfer>>

beforeAll(async () => {
  world = await scheduledTransfer(t)
})

const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

async function expectClientError(response: Response) {
  expect(response.status, await response.clone().text()).toBeGreaterThanOrEqual(400)
  expect(response.status).toBeLessThan(500)
  const { error } = await response.json()
  expect(error.code).toEqual(expect.any(String))
  expect(error.message).toEqual(expect.any(String))
}

describe('hostile input gets a clear 4xx, never a 500', () => {
  it.each([
    '0000-01-01T00:00:00Z',
    '-000001-01-01T00:00:00Z',
    '+275760-09-13T00:00:00Z',
    '2024-02-31T10:00:00Z',
  ])('X-Client-Time %s on a scan and on a queued pickup', async (time) => {
    const scan = await t.post('/api/scans', {
      cookie: world.member.cookie,
      json: { value: world.tag.code },
      headers: { 'idempotency-key': crypto.randomUUID(), 'x-client-time': time, 'x-from-queue': '1' },
    })
    await expectClientError(scan)
    const queued = await pickup(t, world.contact.cookie, world.transfer.id, crypto.randomUUID(), {
      'x-client-time': time,
      'x-from-queue': '1',
    })
    await expectClientError(queued)
  })

  it.each(['0001-01-01T00:00:00Z', '1970-01-01T00:00:00Z'])(
    'a device clock reset to %s still gets its scan recorded (judged by the server’s clock)',
    async (time) => {
      const scan = await t.post('/api/scans', {
        cookie: world.member.cookie,
        json: { value: world.tag.code },
        headers: { 'idempotency-key': crypto.randomUUID(), 'x-client-time': time, 'x-from-queue': '1' },
      })
      expect(scan.status).toBe(201)
    },
  )

  it.each(['\ud800x', 'x\udfff', 'a\u0000b'])('a scan value %j', async (value) => {
    const scan = await t.post('/api/scans', {
      cookie: world.member.cookie,
      json: { value },
      headers: { 'idempotency-key': crypto.randomUUID() },
    })
    await expectClientError(scan)
  })

  it.each(['Cave \ud800', 'Cave\r\nCellier', 'Cave\u0007'])('a tag-order name %j', async (name) => {
    const added = await t.post('/api/cart/items', {
      cookie: world.admin.cookie,
      json: { productType: 'TAG', quantity: 10, configuration: { ...TAG_CONFIGURATION, name } },
    })
    await expectClientError(added)
  })

  it.each(['Cave\r\nB', 'Tab\tname', 'Bell\u0007', 'Lone \ud800'])('a keychain name %j', async (name) => {
    await expectClientError(await t.post('/api/keychains', { cookie: world.admin.cookie, json: { name } }))
  })

  it.each([
    '/api/transfers',
    () => `/api/keychains/${world.keychain.id}/transfers`,
    '/api/orders',
    () => `/api/organizations/${world.organization.id}/orders`,
  ])('a cursor holding an impossible date on %s', async (path) => {
    const url = typeof path === 'function' ? path() : path
    for (const date of [
      '+275760-09-13T00:00:00.001Z',
      '0000-01-01T00:00:00.000Z',
      '99999-01-01',
      '2030-02-30',
      '2030-01-15',
    ]) {
      const response = await t.get(
        `${url}?cursor=${cursorOf([date, '00000000-0000-4000-8000-000000000000'])}`,
        {
          cookie: world.admin.cookie,
        },
      )
      await expectClientError(response)
    }
  })

  it.each([
    ['/api/scans', { value: 'x'.repeat(200_000) }],
    ['/api/cart/items', { productType: 'x'.repeat(200_000), quantity: 1 }],
    ['/api/keychains', { name: ['x'.repeat(200_000)] }],
  ])('does not echo a huge value back in its error (%s)', async (path, json) => {
    const response = await t.post(path, {
      cookie: world.admin.cookie,
      json,
      headers: { 'idempotency-key': crypto.randomUUID() },
    })
    const text = await response.text()
    expect(response.status).toBe(400)
    expect(text.length).toBeLessThan(1024)
  })
})

describe('a JSON body nested too deep is a 400, never a 500 (issue 37)', () => {
  const JSON_TYPE = { 'content-type': 'application/json' }
  const arrays = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`
  const objects = (levels: number) => `${'{"a":'.repeat(levels)}null${'}'.repeat(levels)}`
  const send = (path: string, body: string, cookie?: string) =>
    t.post(path, { body, cookie, headers: { ...JSON_TYPE, 'idempotency-key': crypto.randomUUID() } })

  async function expectTooDeep(response: Response) {
    const text = await response.text()
    expect(response.status, text.slice(0, 200)).toBe(400)
    const { error } = JSON.parse(text)
    expect(error.code).toBe('bad_request')
    expect(error.message).toBe(
      `The request body nests arrays and objects more than ${JSON_MAX_DEPTH} levels deep.`,
    )
  }

  it.each([
    ['10,000 levels of `[` (20 KB)', arrays(10_000)],
    ['10,000 levels of objects', objects(10_000)],
    ['as many levels as the body limit holds', arrays(MAX_BODY_BYTES / 2)],
    ['`[` up to the body limit, never closed', '['.repeat(MAX_BODY_BYTES)],
    ['one level too many, in a field', `{"email":${arrays(JSON_MAX_DEPTH)}}`],
  ])('%s, signed out', async (_, body) => {
    await expectTooDeep(await send('/api/email-tokens', body))
  })

  it('signed in, on the keychain import’s larger limit too', async () => {
    await expectTooDeep(await send('/api/keychains', arrays(10_000), world.admin.cookie))
    await expectTooDeep(
      await send('/api/keychain-imports/previews', arrays(IMPORT_MAX_BODY_BYTES / 2), world.admin.cookie),
    )
  })

  it('reads a body nested exactly to the limit, and brackets inside strings do not count', async () => {
    // Read, then refused by the schema: an e-mail address is no array.
    const atLimit = await send('/api/email-tokens', `{"email":${arrays(JSON_MAX_DEPTH - 1)}}`)
    expect(atLimit.status).toBe(400)
    expect((await atLimit.json()).error.code).toBe('validation_failed')
    const bracketsInText = await send(
      '/api/email-tokens',
      JSON.stringify({ email: `\\"${'['.repeat(100)}"@example.com` }),
    )
    expect(bracketsInText.status).toBe(400)
    expect((await bracketsInText.json()).error.code).toBe('validation_failed')
  })
})
