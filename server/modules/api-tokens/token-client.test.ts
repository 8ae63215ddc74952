import { randomUUID } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import { type ServerType, serve } from '@hono/node-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeTags, organizationWithAdmin, signedInMember } from '../../../tests/server/fixtures.ts'
import { setupTestAppAtEpoch } from '../../../tests/server/harness.ts'
import { parisDay, subscribe } from '../../../tests/server/transfers.ts'

/**
 * An integrator's client with API tokens only, against the real app on a real socket: no cookie, no Origin,
 * plain fetch. An organization token (MANAGER) makes the keychain and its tag key and authorizes a transfer to
 * a member; the member's personal token scans the tag and picks the keychain up; an admin's personal token
 * scans it back in and confirms the return.
 */
const t = setupTestAppAtEpoch()
let server: ServerType
let base: string

beforeAll(async () => {
  server = serve({ fetch: t.app.fetch, hostname: '127.0.0.1', port: 0 })
  await new Promise<void>((resolve) => server.once('listening', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`
})
afterAll(async () => {
  await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())))
})

/** A client holding one token: JSON in, JSON out, and nothing else a browser would add. */
function client(token: string) {
  return async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    expect(response.headers.get('set-cookie'), `${method} ${path}`).toBeNull()
    const text = await response.text()
    return { status: response.status, body: text ? JSON.parse(text) : null }
  }
}

/** Tokens are made on the profile and organization pages (a signed-in session); the client never sees one. */
async function tokenOf(cookie: string, path: string, json: object): Promise<string> {
  const response = await t.post(`/api${path}`, { cookie, json })
  expect(response.status).toBe(201)
  return (await response.json()).token
}

describe('a client with API tokens only, over HTTP', () => {
  it('runs a whole transfer: keychain and tag key, authorization, scan and pickup, scan and return', async () => {
    const { organization, admin } = await organizationWithAdmin(t, 'Intégrations')
    await subscribe(t, organization.id)
    const member = await signedInMember(t, organization.id, 'MEMBER')
    const [tag] = await makeTags(t, organization.id, 1, 'API')

    const office = client(
      await tokenOf(admin.cookie, `/organizations/${organization.id}/api-tokens`, {
        name: 'Office system',
        role: 'MANAGER',
      }),
    )
    const recipient = client(await tokenOf(member.cookie, '/api-tokens', { name: 'Phone app' }))
    const desk = client(await tokenOf(admin.cookie, '/api-tokens', { name: 'Front desk' }))

    const keychain = await office('POST', '/keychains', { name: 'Entrepôt' })
    expect(keychain.status).toBe(201)
    const key = await office('POST', `/keychains/${keychain.body.id}/keys`, {
      type: 'TAG',
      name: 'Portail',
      tagId: tag!.id,
    })
    expect(key.status).toBe(201)
    const authorized = await office('POST', `/keychains/${keychain.body.id}/transfers`, {
      recipient: { kind: 'member', userId: member.id },
      fromDate: parisDay(t, 0),
      toDate: parisDay(t, 2),
    })
    expect(authorized.status, JSON.stringify(authorized.body)).toBe(201)
    expect(authorized.body).toMatchObject({ status: 'SCHEDULED', recipient: { id: member.id } })
    const transferId: string = authorized.body.id

    const scanned = await recipient(
      'POST',
      '/scans',
      { value: tag!.publicId },
      { 'idempotency-key': randomUUID() },
    )
    expect(scanned.status).toBe(201)
    expect(scanned.body).toMatchObject({
      status: 'resolved',
      keychain: { id: keychain.body.id },
      transfer: { id: transferId, status: 'SCHEDULED', next: 'PICKUP' },
    })
    const pickupKey = randomUUID()
    const picked = await recipient('POST', `/transfers/${transferId}/pickups`, undefined, {
      'idempotency-key': pickupKey,
    })
    expect(picked.status, JSON.stringify(picked.body)).toBe(201)
    expect(picked.body).toMatchObject({
      status: 'TRANSFERRED',
      pickups: [{ kind: 'PICKUP', by: { id: member.id } }],
    })
    // The same request again (a retry after a lost answer): the same answer, no second pickup.
    const replayed = await recipient('POST', `/transfers/${transferId}/pickups`, undefined, {
      'idempotency-key': pickupKey,
    })
    expect(replayed).toEqual(picked)

    t.clock.advance(60 * 60 * 1000)
    const back = await desk('POST', '/scans', { value: tag!.publicId }, { 'idempotency-key': randomUUID() })
    expect(back.body).toMatchObject({
      status: 'resolved',
      keychain: { custodian: { id: member.id } },
      transfer: { id: transferId, status: 'TRANSFERRED', next: 'RETURN' },
    })
    const returned = await desk('POST', `/transfers/${transferId}/pickups`, undefined, {
      'idempotency-key': randomUUID(),
    })
    expect(returned.status, JSON.stringify(returned.body)).toBe(201)
    expect(returned.body.status).toBe('RETURNED')

    // The office system reads the outcome through its organization's routes.
    const history = await office('GET', `/keychains/${keychain.body.id}/transfers`)
    expect(history.status).toBe(200)
    expect(history.body.data.map((each: { id: string; status: string }) => [each.id, each.status])).toEqual([
      [transferId, 'RETURNED'],
    ])
    const custody = await office('GET', `/keychains/${keychain.body.id}/custody-log`)
    expect(custody.body.data.map((entry: { reason: string }) => entry.reason)).toEqual(
      expect.arrayContaining(['Transfer pickup', 'Transfer return']),
    )
    // A person's routes stay closed to the organization token.
    expect(
      (
        await office('POST', `/transfers/${transferId}/pickups`, undefined, {
          'idempotency-key': randomUUID(),
        })
      ).status,
    ).toBe(403)
  })
})
