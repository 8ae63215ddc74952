import { randomUUID } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import type { StocktakeDetail, StocktakeScanResult } from '../../../contract/stocktakes.ts'
import { organizationWithAdmin, signedInMember } from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { makeBoard, makePlace } from '../../../tests/server/places.ts'
import { hookLabel, keychainsAtHome } from '../../../tests/server/stocktakes.ts'
import { makeTransfer } from '../../../tests/server/transfers.ts'
import {
  keychains,
  organizationEvents,
  organizations,
  places,
  stocktakeScans,
  users,
} from '../../db/schema.ts'
import { scheduleStocktakeSweep } from './notices.ts'

const t = setupTestApp()

/**
 * An organization with a site holding two boards (A: 4 hooks, B: 2 hooks), five keychains at home (A-01…A-04,
 * B-01), one held by a member, one out on a transfer, one with no home; and a second site's board.
 */
async function world() {
  const { organization, admin } = await organizationWithAdmin(t, 'Agence')
  const member = await signedInMember(t, organization.id, 'MEMBER')
  const manager = await signedInMember(t, organization.id, 'MANAGER')
  const site = await makePlace(t, organization.id, { name: 'Siège', kind: 'SITE' })
  const a = await makeBoard(t, organization.id, {
    name: 'Tableau A',
    prefix: 'A-',
    count: 4,
    parentId: site.id,
  })
  const b = await makeBoard(t, organization.id, {
    name: 'Tableau B',
    prefix: 'B-',
    count: 2,
    parentId: site.id,
  })
  const other = await makeBoard(t, organization.id, { name: 'Annexe', prefix: 'C-', count: 1 })
  const home = await keychainsAtHome(t, organization.id, [...a.hooks.map((hook) => hook.id), b.hooks[0]!.id])
  const [held] = await keychainsAtHome(t, organization.id, [a.hooks[0]!.id], {
    custodianId: member.id,
    name: 'Held',
  })
  const [lent] = await keychainsAtHome(t, organization.id, [b.hooks[1]!.id], { name: 'Lent' })
  await makeTransfer(t, {
    organizationId: organization.id,
    keychainId: lent!.id,
    recipientId: member.id,
    status: 'TRANSFERRED',
  })
  const [homeless] = await keychainsAtHome(t, organization.id, [null], { name: 'Homeless' })
  const [elsewhere] = await keychainsAtHome(t, organization.id, [other.hooks[0]!.id], { name: 'Annexe' })
  return { organization, admin, member, manager, site, a, b, other, home, held, lent, homeless, elsewhere }
}

type World = Awaited<ReturnType<typeof world>>

const start = async (w: Pick<World, 'manager'>, placeId: string | null) => {
  // Each stocktake's devices number their scans from 1.
  seqs = new Map()
  const response = await t.post('/api/stocktakes', { cookie: w.manager.cookie, json: { placeId } })
  expect(response.status).toBe(201)
  return (await response.json()) as StocktakeDetail
}

let seqs = new Map<string, number>()
const scan = (
  cookie: string,
  stocktakeId: string,
  body: { value: string; hookId?: string | null; deviceId?: string; deviceSeq?: number },
  key: string = randomUUID(),
) => {
  const deviceId = body.deviceId ?? '00000000-0000-4000-8000-000000000006'
  const deviceSeq = body.deviceSeq ?? (seqs.get(deviceId) ?? 0) + 1
  seqs.set(deviceId, deviceSeq)
  return t.post(`/api/stocktakes/${stocktakeId}/scans`, {
    cookie,
    json: { value: body.value, hookId: body.hookId ?? null, deviceId, deviceSeq },
    headers: { 'idempotency-key': key },
  })
}
const scanned = async (...args: Parameters<typeof scan>) => {
  const response = await scan(...args)
  expect(response.status).toBe(201)
  return (await response.json()) as StocktakeScanResult
}
const detail = async (cookie: string, id: string) => {
  const response = await t.get(`/api/stocktakes/${id}`, { cookie })
  expect(response.status).toBe(200)
  return (await response.json()) as StocktakeDetail
}

describe('POST /api/stocktakes', () => {
  it('expects the keychains at home in the place’s subtree that nobody holds, and logs the start', async () => {
    const w = await world()
    const stocktake = await start(w, w.site.id)
    expect(stocktake).toMatchObject({
      status: 'OPEN',
      scope: { id: w.site.id, name: 'Siège', kind: 'SITE' },
      startedBy: { id: w.manager.id },
      closedAt: null,
      counts: { expected: 5, found: 0, misplaced: 0, missing: 5, unexpected: 0 },
      scanCount: 0,
    })
    expect(stocktake.items.map((item) => item.keychain.id).sort()).toEqual(
      w.home.map((keychain) => keychain.id).sort(),
    )
    expect(stocktake.items[0]).toMatchObject({
      state: 'PENDING',
      expectedHook: { code: 'A-01', placeName: 'Tableau A' },
      keychain: { tagCodes: [w.home[0]!.tag.code] },
    })
    expect(stocktake.boards).toEqual([
      {
        place: { id: w.a.board.id, name: 'Tableau A' },
        counts: { expected: 4, found: 0, misplaced: 0, missing: 4, unexpected: 0 },
      },
      {
        place: { id: w.b.board.id, name: 'Tableau B' },
        counts: { expected: 1, found: 0, misplaced: 0, missing: 1, unexpected: 0 },
      },
    ])
    const [event] = await t.db
      .select()
      .from(organizationEvents)
      .where(
        and(
          eq(organizationEvents.organizationId, w.organization.id),
          eq(organizationEvents.kind, 'stocktake.started'),
        ),
      )
    expect(event?.payload).toMatchObject({ stocktakeId: stocktake.id, placeId: w.site.id, expected: 5 })
  })

  it('covers the whole organization without a place, one board with it; one open stocktake per scope', async () => {
    const w = await world()
    const whole = await start(w, null)
    expect(whole.scope).toBeNull()
    expect(whole.counts.expected).toBe(6)
    const board = await start(w, w.b.board.id)
    expect(board.items.map((item) => item.keychain.id)).toEqual([w.home[4]!.id])
    const again = await t.post('/api/stocktakes', { cookie: w.admin.cookie, json: { placeId: null } })
    expect(again.status).toBe(409)
    expect((await again.json()).error.code).toBe('conflict')
    expect(
      (await t.post('/api/stocktakes', { cookie: w.admin.cookie, json: { placeId: w.b.board.id } })).status,
    ).toBe(409)
  })

  it('refuses a malformed body (400), a foreign place (404) and a MEMBER (403)', async () => {
    const w = await world()
    const foreign = await organizationWithAdmin(t, 'Ailleurs')
    const theirs = await makePlace(t, foreign.organization.id)
    const post = (cookie: string, json: unknown) => t.post('/api/stocktakes', { cookie, json })
    expect((await post(w.manager.cookie, { placeId: 'nope' })).status).toBe(400)
    expect((await post(w.manager.cookie, {})).status).toBe(400)
    expect((await post(w.manager.cookie, { placeId: null, extra: 1 })).status).toBe(400)
    expect((await post(w.manager.cookie, { placeId: theirs.id })).status).toBe(404)
    expect((await post(w.manager.cookie, { placeId: randomUUID() })).status).toBe(404)
    expect((await post(w.member.cookie, { placeId: null })).status).toBe(403)
  })
})

describe('GET /api/stocktakes', () => {
  it('lists newest first, by status, paged; another organization’s stocktake is a 404', async () => {
    const w = await world()
    const first = await start(w, w.a.board.id)
    t.clock.advance(60_000)
    const second = await start(w, w.b.board.id)
    await t.post(`/api/stocktakes/${first.id}/close`, { cookie: w.manager.cookie })
    const all = await (await t.get('/api/stocktakes', { cookie: w.member.cookie })).json()
    expect(all.data.map((each: { id: string }) => each.id)).toEqual([second.id, first.id])
    expect(all.data[1]).toMatchObject({ status: 'CLOSED', counts: { expected: 4, missing: 4 } })
    const open = await (await t.get('/api/stocktakes?status=OPEN', { cookie: w.member.cookie })).json()
    expect(open.data.map((each: { id: string }) => each.id)).toEqual([second.id])
    const page = await (await t.get('/api/stocktakes?limit=1', { cookie: w.member.cookie })).json()
    expect(page.data).toHaveLength(1)
    const next = await (
      await t.get(`/api/stocktakes?limit=1&cursor=${page.nextCursor}`, { cookie: w.member.cookie })
    ).json()
    expect(next).toMatchObject({ data: [{ id: first.id }], nextCursor: null })
    expect((await t.get('/api/stocktakes?status=DONE', { cookie: w.member.cookie })).status).toBe(400)
    expect((await t.get('/api/stocktakes?cursor=zzz', { cookie: w.member.cookie })).status).toBe(400)

    const foreign = await organizationWithAdmin(t, 'Ailleurs')
    expect((await t.get(`/api/stocktakes/${first.id}`, { cookie: foreign.admin.cookie })).status).toBe(404)
    expect((await t.get(`/api/stocktakes/${randomUUID()}`, { cookie: w.member.cookie })).status).toBe(404)
    expect((await t.get('/api/stocktakes/nope', { cookie: w.member.cookie })).status).toBe(400)
  })
})

describe('POST /api/stocktakes/:id/scans', () => {
  it('answers HOOK, FOUND, MISPLACED, REPEATED, UNEXPECTED and UNKNOWN, and tallies them', async () => {
    const w = await world()
    const stocktake = await start(w, w.site.id)
    const [a1, a2, a3] = w.a.hooks
    const cookie = w.member.cookie
    const hook = await scanned(cookie, stocktake.id, { value: hookLabel(t, a1!) })
    expect(hook).toMatchObject({
      outcome: 'HOOK',
      keychain: null,
      hook: { id: a1!.id, code: 'A-01', placeId: w.a.board.id, placeName: 'Tableau A' },
      late: false,
    })
    // On its own hook; with no hook named; on another hook.
    const found = await scanned(cookie, stocktake.id, { value: w.home[0]!.tag.code, hookId: a1!.id })
    expect(found).toMatchObject({
      outcome: 'FOUND',
      keychain: { id: w.home[0]!.id, tagCodes: [w.home[0]!.tag.code] },
      hook: { id: a1!.id },
      counts: { expected: 5, found: 1, misplaced: 0, missing: 4, unexpected: 0 },
    })
    expect(
      (
        await scanned(cookie, stocktake.id, {
          value: `${t.config.publicUrl}/tags/${w.home[1]!.tag.publicId}`,
        })
      ).outcome,
    ).toBe('FOUND')
    const misplaced = await scanned(cookie, stocktake.id, { value: w.home[2]!.tag.code, hookId: a1!.id })
    expect(misplaced).toMatchObject({ outcome: 'MISPLACED', counts: { found: 2, misplaced: 1, missing: 2 } })
    // Scanned again: counted once; seen again on its own hook, it is found there after all.
    const again = await scanned(cookie, stocktake.id, { value: w.home[2]!.tag.code, hookId: a3!.id })
    expect(again).toMatchObject({ outcome: 'REPEATED', counts: { found: 3, misplaced: 0, missing: 2 } })
    expect(
      (await scanned(cookie, stocktake.id, { value: w.home[0]!.tag.code, hookId: a1!.id })).outcome,
    ).toBe('REPEATED')
    // A keychain of the organization not expected here (held by someone, another site's), twice: once.
    const unexpected = await scanned(cookie, stocktake.id, { value: w.elsewhere!.tag.code, hookId: a2!.id })
    expect(unexpected).toMatchObject({
      outcome: 'UNEXPECTED',
      keychain: { id: w.elsewhere!.id },
      counts: { unexpected: 1 },
    })
    expect((await scanned(cookie, stocktake.id, { value: w.elsewhere!.tag.code })).outcome).toBe('REPEATED')
    expect((await scanned(cookie, stocktake.id, { value: w.held!.tag.code })).outcome).toBe('UNEXPECTED')
    // Unknown values: not a tag, another organization's tag and hook label; kept as typed.
    const foreign = await organizationWithAdmin(t, 'Ailleurs')
    const theirs = await makeBoard(t, foreign.organization.id, { count: 1 })
    const [theirKeychain] = await keychainsAtHome(t, foreign.organization.id, [theirs.hooks[0]!.id])
    for (const value of ['hello world', theirKeychain!.tag.code, hookLabel(t, theirs.hooks[0]!)]) {
      const unknown = await scanned(cookie, stocktake.id, { value, hookId: a2!.id })
      expect(unknown).toMatchObject({ outcome: 'UNKNOWN', keychain: null, hook: { id: a2!.id } })
    }
    expect((await scanned(cookie, stocktake.id, { value: 'hello world' })).outcome).toBe('REPEATED')
    // A board's own label says where the next tags are, without a hook.
    const boardLabel = await scanned(cookie, stocktake.id, { value: `p:${w.a.board.publicId}` })
    expect(boardLabel).toMatchObject({ outcome: 'HOOK', hook: null })
    // A hook id the organization does not have is left out.
    const stray = await scanned(cookie, stocktake.id, {
      value: w.home[3]!.tag.code,
      hookId: theirs.hooks[0]!.id,
    })
    expect(stray).toMatchObject({ outcome: 'FOUND', hook: null })

    const read = await detail(w.admin.cookie, stocktake.id)
    expect(read.counts).toEqual({ expected: 5, found: 4, misplaced: 0, missing: 1, unexpected: 5 })
    expect(read.scanCount).toBe(15)
    expect(read.items.find((item) => item.keychain.id === w.home[2]!.id)).toMatchObject({
      state: 'FOUND',
      foundHook: { id: a3!.id },
      foundBy: { id: w.member.id },
    })
    expect(read.unexpected.map((each) => each.value)).toEqual([
      w.elsewhere!.tag.code,
      w.held!.tag.code,
      'hello world',
      theirKeychain!.tag.code,
      hookLabel(t, theirs.hooks[0]!),
    ])
    expect(read.boards[0]).toMatchObject({
      place: { id: w.a.board.id },
      counts: { expected: 4, found: 4, missing: 0, unexpected: 4 },
    })
    expect(read.devices).toEqual([
      {
        deviceId: '00000000-0000-4000-8000-000000000006',
        person: expect.objectContaining({ id: w.member.id }),
        made: 15,
        received: 15,
      },
    ])
  })

  it('counts a replay once and answers the first answer; another body under the key is 422', async () => {
    const w = await world()
    const stocktake = await start(w, w.a.board.id)
    const key = randomUUID()
    const body = {
      value: w.home[0]!.tag.code,
      deviceId: '00000000-0000-4000-8000-000000000007',
      deviceSeq: 1,
    }
    const first = await scan(w.member.cookie, stocktake.id, body, key)
    await scanned(w.member.cookie, stocktake.id, {
      value: w.home[1]!.tag.code,
      deviceId: '00000000-0000-4000-8000-000000000007',
      deviceSeq: 2,
    })
    const replay = await scan(w.member.cookie, stocktake.id, body, key)
    expect(replay.status).toBe(201)
    expect(replay.headers.get('idempotent-replayed')).toBe('true')
    const answer = await first.json()
    expect(await replay.json()).toEqual(answer)
    expect(answer.counts.found).toBe(1)
    const other = await scan(w.member.cookie, stocktake.id, { ...body, value: w.home[2]!.tag.code }, key)
    expect(other.status).toBe(422)
    expect((await other.json()).error.code).toBe('idempotency_key_reused')
    const otherUser = await scan(w.admin.cookie, stocktake.id, body, key)
    expect(otherUser.status).toBe(422)
    // The device's number is taken by another scan.
    const taken = await scan(w.member.cookie, stocktake.id, { ...body, value: w.home[3]!.tag.code })
    expect(taken.status).toBe(409)
    const read = await detail(w.admin.cookie, stocktake.id)
    expect(read).toMatchObject({ scanCount: 2, counts: { found: 2 } })
    expect(read.devices).toMatchObject([
      { deviceId: '00000000-0000-4000-8000-000000000007', made: 2, received: 2 },
    ])
  })

  it('refuses a bad body (400), a foreign stocktake (404), a CONTACT and a role below the organization’s (403)', async () => {
    const w = await world()
    const stocktake = await start(w, w.a.board.id)
    const post = (cookie: string, json: unknown, headers: Record<string, string> = {}) =>
      t.post(`/api/stocktakes/${stocktake.id}/scans`, {
        cookie,
        json,
        headers: { 'idempotency-key': randomUUID(), ...headers },
      })
    const valid = { value: 'A', deviceId: '00000000-0000-4000-8000-000000000001', deviceSeq: 1 }
    expect((await post(w.member.cookie, { ...valid, value: '   ' })).status).toBe(400)
    expect((await post(w.member.cookie, { ...valid, deviceId: 'short' })).status).toBe(400)
    expect((await post(w.member.cookie, { ...valid, deviceSeq: 0 })).status).toBe(400)
    expect((await post(w.member.cookie, { ...valid, hookId: 'nope' })).status).toBe(400)
    expect(
      (await t.post(`/api/stocktakes/${stocktake.id}/scans`, { cookie: w.member.cookie, json: valid }))
        .status,
    ).toBe(400)
    const contact = await signedInMember(t, w.organization.id, 'CONTACT')
    expect((await post(contact.cookie, valid)).status).toBe(403)
    const foreign = await organizationWithAdmin(t, 'Ailleurs')
    expect((await post(foreign.admin.cookie, valid)).status).toBe(404)
    await t.db
      .update(organizations)
      .set({ stocktakeRole: 'MANAGER' })
      .where(eq(organizations.id, w.organization.id))
    expect((await post(w.member.cookie, valid)).status).toBe(403)
    expect(
      (
        await t.put(`/api/stocktakes/${stocktake.id}/devices/00000000-0000-4000-8000-000000000001`, {
          cookie: w.member.cookie,
          json: { made: 1 },
        })
      ).status,
    ).toBe(403)
    expect((await post(w.manager.cookie, valid)).status).toBe(201)
  })
})

describe('PUT /api/stocktakes/:id/devices/:deviceId', () => {
  it('raises what the device made, never lowers it', async () => {
    const w = await world()
    const stocktake = await start(w, w.a.board.id)
    const put = (made: unknown) =>
      t.put(`/api/stocktakes/${stocktake.id}/devices/00000000-0000-4000-8000-000000000002`, {
        cookie: w.member.cookie,
        json: { made },
      })
    expect(await (await put(3)).json()).toEqual({
      deviceId: '00000000-0000-4000-8000-000000000002',
      person: expect.objectContaining({ id: w.member.id }),
      made: 3,
      received: 0,
    })
    expect((await (await put(1)).json()).made).toBe(3)
    expect((await put(-1)).status).toBe(400)
    expect((await put(1.5)).status).toBe(400)
    expect(
      (
        await t.put(`/api/stocktakes/${stocktake.id}/devices/x`, {
          cookie: w.member.cookie,
          json: { made: 1 },
        })
      ).status,
    ).toBe(400)
    const foreign = await organizationWithAdmin(t, 'Ailleurs')
    expect(
      (
        await t.put(`/api/stocktakes/${stocktake.id}/devices/00000000-0000-4000-8000-000000000002`, {
          cookie: foreign.admin.cookie,
          json: { made: 1 },
        })
      ).status,
    ).toBe(404)
  })
})

describe('POST /api/stocktakes/:id/close', () => {
  it('is refused while a device has unsent scans, naming its person; then marks the rest missing', async () => {
    const w = await world()
    const stocktake = await start(w, w.site.id)
    await scanned(w.member.cookie, stocktake.id, {
      value: w.home[0]!.tag.code,
      deviceId: '00000000-0000-4000-8000-000000000003',
      deviceSeq: 1,
    })
    await t.put(`/api/stocktakes/${stocktake.id}/devices/00000000-0000-4000-8000-000000000003`, {
      cookie: w.member.cookie,
      json: { made: 3 },
    })
    const refused = await t.post(`/api/stocktakes/${stocktake.id}/close`, { cookie: w.manager.cookie })
    expect(refused.status).toBe(409)
    const body = await refused.json()
    expect(body.error).toMatchObject({
      code: 'stocktake_scans_unsent',
      unsent: [
        {
          deviceId: '00000000-0000-4000-8000-000000000003',
          person: { id: w.member.id },
          made: 3,
          received: 1,
        },
      ],
    })
    expect(body.error.message).toContain(w.member.email)
    await scanned(w.member.cookie, stocktake.id, {
      value: w.home[1]!.tag.code,
      hookId: w.b.hooks[0]!.id,
      deviceId: '00000000-0000-4000-8000-000000000003',
      deviceSeq: 2,
    })
    await scanned(w.member.cookie, stocktake.id, {
      value: w.held!.tag.code,
      deviceId: '00000000-0000-4000-8000-000000000003',
      deviceSeq: 3,
    })
    expect((await t.post(`/api/stocktakes/${stocktake.id}/close`, { cookie: w.member.cookie })).status).toBe(
      403,
    )
    t.mail.clear()
    const closed = await t.post(`/api/stocktakes/${stocktake.id}/close`, { cookie: w.manager.cookie })
    expect(closed.status).toBe(200)
    expect(await closed.json()).toMatchObject({
      status: 'CLOSED',
      closedBy: { id: w.manager.id },
      counts: { expected: 5, found: 1, misplaced: 1, missing: 3, unexpected: 1 },
    })
    const read = await detail(w.admin.cookie, stocktake.id)
    expect(read.items.filter((item) => item.state === 'MISSING')).toHaveLength(3)
    // The keychains seen remember where.
    const [moved] = await t.db.select().from(keychains).where(eq(keychains.id, w.home[1]!.id))
    expect(moved).toMatchObject({ hookId: w.b.hooks[0]!.id, hookSeenById: w.member.id })

    const [event] = await t.db
      .select()
      .from(organizationEvents)
      .where(
        and(
          eq(organizationEvents.organizationId, w.organization.id),
          eq(organizationEvents.kind, 'stocktake.closed'),
        ),
      )
    expect(event?.payload).toMatchObject({
      stocktakeId: stocktake.id,
      counts: { missing: 3, misplaced: 1 },
      misplaced: [w.home[1]!.id],
    })
    expect([...(event!.payload as { missing: string[] }).missing].sort()).toEqual(
      [w.home[2]!.id, w.home[3]!.id, w.home[4]!.id].sort(),
    )
    // The admin is told what is missing, in their language.
    const mails = t.mail.to(w.admin.email)
    expect(mails).toHaveLength(1)
    expect(mails[0]!.subject).toContain('3')
    expect(mails[0]!.text).toContain(w.home[2]!.name)
    expect(mails[0]!.text).toContain('A-03')

    const twice = await t.post(`/api/stocktakes/${stocktake.id}/close`, { cookie: w.manager.cookie })
    expect(twice.status).toBe(409)
    // A scan after the close is kept, late, and changes nothing.
    const late = await scanned(w.member.cookie, stocktake.id, {
      value: w.home[2]!.tag.code,
      hookId: w.a.hooks[2]!.id,
      deviceId: '00000000-0000-4000-8000-000000000003',
      deviceSeq: 4,
    })
    expect(late).toMatchObject({ outcome: 'FOUND', late: true, counts: { found: 1, missing: 3 } })
    const [row] = await t.db
      .select()
      .from(stocktakeScans)
      .where(and(eq(stocktakeScans.stocktakeId, stocktake.id), eq(stocktakeScans.deviceSeq, 4)))
    expect(row).toMatchObject({ late: true, outcome: 'FOUND' })
    expect((await detail(w.admin.cookie, stocktake.id)).counts).toMatchObject({ found: 1, missing: 3 })

    const foreign = await organizationWithAdmin(t, 'Ailleurs')
    expect(
      (await t.post(`/api/stocktakes/${stocktake.id}/close`, { cookie: foreign.admin.cookie })).status,
    ).toBe(404)
  })

  it('closes 1,000 keychains on 20 boards with set-based statements', async () => {
    const w = await world()
    const site = await makePlace(t, w.organization.id, { name: 'Entrepôt', kind: 'SITE' })
    const homes: string[] = []
    for (let board = 0; board < 20; board += 1) {
      const made = await makeBoard(t, w.organization.id, {
        name: `Rack ${board}`,
        prefix: `R${board}-`,
        count: 50,
        parentId: site.id,
      })
      homes.push(...made.hooks.map((hook) => hook.id))
    }
    const made = await keychainsAtHome(t, w.organization.id, homes)
    const stocktake = await start(w, site.id)
    expect(stocktake.counts.expected).toBe(1000)
    for (const keychain of made.slice(0, 10)) {
      await scanned(w.member.cookie, stocktake.id, { value: keychain.tag.code, hookId: keychain.homeHookId })
    }
    const began = performance.now()
    const closed = await t.post(`/api/stocktakes/${stocktake.id}/close`, { cookie: w.manager.cookie })
    const took = performance.now() - began
    expect(closed.status).toBe(200)
    expect((await closed.json()).counts).toMatchObject({ expected: 1000, found: 10, missing: 990 })
    console.log(
      `stocktake close of 1,000 keychains on 20 boards: ${took.toFixed(0)} ms (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`,
    )
  }, 60_000)
})

describe('recurring stocktakes', () => {
  it('moves the place’s due day a period on when its stocktake closes; lists due and overdue places', async () => {
    const w = await world()
    await t.db
      .update(places)
      .set({ stocktakeEvery: 'MONTHLY', stocktakeDueOn: '2020-01-01' })
      .where(eq(places.id, w.a.board.id))
    await t.db
      .update(places)
      .set({ stocktakeEvery: 'QUARTERLY', stocktakeDueOn: '2999-01-01' })
      .where(eq(places.id, w.b.board.id))
    const due = await (await t.get('/api/stocktakes/due', { cookie: w.member.cookie })).json()
    expect(due).toEqual({
      data: [
        { place: { id: w.a.board.id, name: 'Tableau A', kind: 'BOARD' }, dueOn: '2020-01-01', overdue: true },
      ],
    })
    const stocktake = await start(w, w.a.board.id)
    await t.post(`/api/stocktakes/${stocktake.id}/close`, { cookie: w.manager.cookie })
    const [place] = await t.db.select().from(places).where(eq(places.id, w.a.board.id))
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(t.clock.now())
    const [year, month, day] = today.split('-').map(Number) as [number, number, number]
    const next = new Date(Date.UTC(year, month, 1))
    next.setUTCDate(Math.min(day, new Date(Date.UTC(year, month + 1, 0)).getUTCDate()))
    expect(place!.stocktakeDueOn).toBe(next.toISOString().slice(0, 10))
    expect((await (await t.get('/api/stocktakes/due', { cookie: w.member.cookie })).json()).data).toEqual([])
  })
})

describe('the daily sweep of recurring stocktakes', () => {
  it('mails the admins once when a place falls due and once when it is a week overdue, in their language', async () => {
    const w = await world()
    const english = await signedInMember(t, w.organization.id, 'ADMIN')
    await t.db.update(users).set({ locale: 'en' }).where(eq(users.id, english.id))
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(t.clock.now())
    await t.db
      .update(places)
      .set({ stocktakeEvery: 'QUARTERLY', stocktakeDueOn: today })
      .where(eq(places.id, w.b.board.id))
    t.mail.clear()
    await scheduleStocktakeSweep(t.db, t.clock.now())
    await scheduleStocktakeSweep(t.db, t.clock.now())
    await t.runJobs()
    const subjects = (email: string) => t.mail.to(email).map((mail) => mail.subject)
    expect(subjects(w.admin.email)).toEqual(['Inventaire à faire : Tableau B'])
    expect(subjects(english.email)).toEqual(['Stocktake due: Tableau B'])
    expect(subjects(w.manager.email)).toEqual([])
    for (let day = 1; day <= 9; day += 1) {
      t.clock.advance(24 * 60 * 60 * 1000)
      await t.runJobs()
    }
    expect(subjects(english.email)).toEqual(['Stocktake due: Tableau B', 'Stocktake overdue: Tableau B'])
    expect(t.mail.to(english.email)[1]!.text).toContain('has not been done')
    expect(subjects(w.admin.email)).toEqual([
      'Inventaire à faire : Tableau B',
      'Inventaire en retard : Tableau B',
    ])
  })
})

describe('the report', () => {
  it('is a CSV and a PDF in the reader’s language', async () => {
    const w = await world()
    const stocktake = await start(w, w.a.board.id)
    await scanned(w.member.cookie, stocktake.id, { value: w.home[0]!.tag.code, hookId: w.a.hooks[0]!.id })
    await scanned(w.member.cookie, stocktake.id, { value: 'inconnu' })
    await t.post(`/api/stocktakes/${stocktake.id}/close`, { cookie: w.manager.cookie })
    const fr = await t.get(`/api/stocktakes/${stocktake.id}/report/csv`, {
      cookie: w.admin.cookie,
      headers: { 'accept-language': 'fr-FR' },
    })
    expect(fr.status).toBe(200)
    expect(fr.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    const frText = await fr.text()
    expect(frText.split('\r\n')[0]).toBe(
      'Résultat,Trousseau,Étiquettes,Attendu sur,Trouvé sur,Quand,Par,Valeur scannée',
    )
    expect(frText).toContain(`Trouvé,${w.home[0]!.name},${w.home[0]!.tag.code},A-01 (Tableau A)`)
    expect(frText).toContain('Manquant')
    expect(frText).toContain('inconnu')
    const en = await t.get(`/api/stocktakes/${stocktake.id}/report/csv`, {
      cookie: w.admin.cookie,
      headers: { 'accept-language': 'en' },
    })
    const enText = await en.text()
    expect(enText.split('\r\n')[0]).toBe('Result,Keychain,Tags,Expected on,Found on,When,By,Scanned value')
    expect(enText).toContain('Missing')
    const pdf = await t.get(`/api/stocktakes/${stocktake.id}/report/pdf`, {
      cookie: w.admin.cookie,
      headers: { 'accept-language': 'en' },
    })
    expect(pdf.status).toBe(200)
    expect(pdf.headers.get('content-type')).toBe('application/pdf')
    const bytes = new Uint8Array(await pdf.arrayBuffer())
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-')
    const foreign = await organizationWithAdmin(t, 'Ailleurs')
    expect(
      (await t.get(`/api/stocktakes/${stocktake.id}/report/pdf`, { cookie: foreign.admin.cookie })).status,
    ).toBe(404)
    expect(
      (await t.get(`/api/stocktakes/${stocktake.id}/report/csv`, { cookie: foreign.admin.cookie })).status,
    ).toBe(404)
  })
})
