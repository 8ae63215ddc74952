import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import {
  LOCATION_PUBLIC_ID_PATTERN,
  PLACE_DEPTH_MAX,
  type Place,
  type PlaceDetail,
} from '../../../contract/places.ts'
import { makeKeychain, organizationWithAdmin, signedInMember } from '../../../tests/server/fixtures.ts'
import { setupTestAppAtEpoch } from '../../../tests/server/harness.ts'
import { eventsOf, makeBoard, makePlace, setHome } from '../../../tests/server/places.ts'
import { organizations, places, stocktakeItems, stocktakeScans, stocktakes } from '../../db/schema.ts'

const t = setupTestAppAtEpoch()

async function tree(cookie: string): Promise<Place[]> {
  const response = await t.get('/api/places', { cookie })
  expect(response.status).toBe(200)
  return ((await response.json()) as { data: Place[] }).data
}

async function create(cookie: string, json: unknown) {
  const response = await t.post('/api/places', { cookie, json })
  return {
    status: response.status,
    body: (await response.json()) as PlaceDetail & { error?: { code: string } },
  }
}

describe('the place tree', () => {
  it('lists parents before children, siblings by name, with hook counts and homes of the whole subtree', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const site = await makePlace(t, organization.id, { name: 'Siège', kind: 'SITE' })
    const roomB = await makePlace(t, organization.id, {
      name: 'Salle 10',
      kind: 'ROOM',
      parentId: site.id,
      depth: 1,
    })
    const roomA = await makePlace(t, organization.id, {
      name: 'Salle 2',
      kind: 'ROOM',
      parentId: site.id,
      depth: 1,
    })
    const { board, hooks } = await makeBoard(t, organization.id, {
      name: 'Tableau A',
      parentId: roomA.id,
      depth: 2,
    })
    const other = await makePlace(t, organization.id, { name: 'Annexe', kind: 'SITE' })
    for (const [index, hook] of hooks.slice(0, 2).entries()) {
      const keychain = await makeKeychain(t, organization.id, `K${index}`)
      await setHome(t, keychain.id, hook.id)
    }
    const list = await tree(admin.cookie)
    expect(list.map((place) => place.name)).toEqual(['Annexe', 'Siège', 'Salle 2', 'Tableau A', 'Salle 10'])
    const byId = new Map(list.map((place) => [place.id, place]))
    expect(byId.get(board.id)).toMatchObject({ hookCount: 3, homeCount: 2, depth: 2, parentId: roomA.id })
    expect(byId.get(roomA.id)).toMatchObject({ hookCount: 0, homeCount: 2 })
    expect(byId.get(site.id)).toMatchObject({ homeCount: 2, publicId: null, lastStocktake: null })
    expect(byId.get(roomB.id)).toMatchObject({ homeCount: 0 })
    expect(byId.get(other.id)).toMatchObject({ homeCount: 0, stocktakeEvery: null, stocktakeDueOn: null })
  })

  it('shows each place’s last closed stocktake and its result', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const { board } = await makeBoard(t, organization.id, { count: 0 })
    const keychainIds = await Promise.all(
      ['a', 'b', 'c', 'd'].map(async (name) => (await makeKeychain(t, organization.id, name)).id),
    )
    const at = (minutes: number) => new Date(t.clock.now().getTime() + minutes * 60_000)
    const [older, last] = await t.db
      .insert(stocktakes)
      .values([
        {
          organizationId: organization.id,
          placeId: board.id,
          status: 'CLOSED',
          startedAt: at(0),
          closedAt: at(1),
        },
        {
          organizationId: organization.id,
          placeId: board.id,
          status: 'CLOSED',
          startedAt: at(2),
          closedAt: at(3),
        },
      ])
      .returning()
    await t.db.insert(stocktakeItems).values([
      { stocktakeId: last!.id, keychainId: keychainIds[0]!, state: 'FOUND' },
      { stocktakeId: last!.id, keychainId: keychainIds[1]!, state: 'FOUND' },
      { stocktakeId: last!.id, keychainId: keychainIds[2]!, state: 'MISPLACED' },
      { stocktakeId: last!.id, keychainId: keychainIds[3]!, state: 'MISSING' },
      { stocktakeId: older!.id, keychainId: keychainIds[3]!, state: 'FOUND' },
    ])
    const scan = (seq: number, outcome: 'UNEXPECTED' | 'UNKNOWN' | 'FOUND', value: string, late = false) => ({
      id: randomUUID(),
      stocktakeId: last!.id,
      seq,
      value,
      outcome,
      answer: {},
      deviceId: 'device-one',
      deviceSeq: seq,
      receivedAt: at(2),
      late,
    })
    await t.db
      .insert(stocktakeScans)
      .values([
        scan(1, 'UNKNOWN', 'XYZ'),
        scan(2, 'UNKNOWN', 'XYZ'),
        scan(3, 'UNEXPECTED', 'ABC'),
        scan(4, 'UNKNOWN', 'LATE', true),
        scan(5, 'FOUND', 'OK'),
      ])
    const [place] = await tree(admin.cookie)
    expect(place!.lastStocktake).toEqual({
      id: last!.id,
      closedAt: at(3).toISOString(),
      found: 2,
      missing: 1,
      misplaced: 1,
      unexpected: 2,
    })
  })

  it('is empty for a new organization, refused to a CONTACT, and never shows another organization’s', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const foreign = await organizationWithAdmin(t, 'Foreign')
    await makeBoard(t, foreign.organization.id)
    expect(await tree(admin.cookie)).toEqual([])
    const contact = await signedInMember(t, organization.id, 'CONTACT')
    expect((await t.get('/api/places', { cookie: contact.cookie })).status).toBe(403)
    const member = await signedInMember(t, organization.id, 'MEMBER')
    expect((await t.get('/api/places', { cookie: member.cookie })).status).toBe(200)
  })
})

describe('GET /places/:id', () => {
  it('gives the path from the top and the hooks in position order with the keychains they are home to', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const site = await makePlace(t, organization.id, { name: 'Site', kind: 'SITE' })
    const room = await makePlace(t, organization.id, {
      name: 'Room',
      kind: 'ROOM',
      parentId: site.id,
      depth: 1,
    })
    const { board, hooks } = await makeBoard(t, organization.id, { parentId: room.id, depth: 2, count: 12 })
    const keychain = await makeKeychain(t, organization.id, 'Hall')
    await setHome(t, keychain.id, hooks[10]!.id)
    const response = await t.get(`/api/places/${board.id}`, { cookie: admin.cookie })
    expect(response.status).toBe(200)
    const detail = (await response.json()) as PlaceDetail
    expect(detail.path).toEqual([
      { id: site.id, name: 'Site', kind: 'SITE' },
      { id: room.id, name: 'Room', kind: 'ROOM' },
    ])
    expect(detail.hooks.map((hook) => hook.code)).toEqual(hooks.map((hook) => hook.code))
    expect(detail.hooks.map((hook) => hook.code).slice(8, 11)).toEqual(['A-09', 'A-10', 'A-11'])
    expect(detail.hooks[10]!.homeOf).toEqual([{ id: keychain.id, name: 'Hall' }])
    expect(detail.hooks[0]!.homeOf).toEqual([])
    expect(detail).toMatchObject({ hookCount: 12, homeCount: 1 })
  })

  it('answers 404 for another organization’s place and 400 for a malformed id', async () => {
    const { admin } = await organizationWithAdmin(t)
    const foreign = await organizationWithAdmin(t, 'Foreign')
    const { board } = await makeBoard(t, foreign.organization.id)
    expect((await t.get(`/api/places/${board.id}`, { cookie: admin.cookie })).status).toBe(404)
    expect((await t.get('/api/places/nope', { cookie: admin.cookie })).status).toBe(400)
  })
})

describe('POST /places', () => {
  it('makes a tree: a site, a room in it, a board in the room with a public id; events appended', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const site = await create(admin.cookie, { name: ' Siège ', kind: 'SITE' })
    expect(site.status).toBe(201)
    expect(site.body).toMatchObject({
      name: 'Siège',
      depth: 0,
      parentId: null,
      publicId: null,
      path: [],
      hooks: [],
    })
    const room = await create(admin.cookie, { name: 'Salle', kind: 'ROOM', parentId: site.body.id })
    expect(room.body).toMatchObject({ depth: 1, parentId: site.body.id })
    const board = await create(admin.cookie, { name: 'Tableau', kind: 'BOARD', parentId: room.body.id })
    expect(board.body.depth).toBe(2)
    expect(board.body.publicId).toMatch(LOCATION_PUBLIC_ID_PATTERN)
    const cabinet = await create(admin.cookie, { name: 'Armoire', kind: 'CABINET' })
    expect(cabinet.body.publicId).toMatch(LOCATION_PUBLIC_ID_PATTERN)
    expect(cabinet.body.publicId).not.toBe(board.body.publicId)
    const events = await eventsOf(t, organization.id, ['place.created'])
    expect(events.map((event) => event.payload)).toEqual([
      { placeId: site.body.id, name: 'Siège', kind: 'SITE', parentId: null },
      { placeId: room.body.id, name: 'Salle', kind: 'ROOM', parentId: site.body.id },
      { placeId: board.body.id, name: 'Tableau', kind: 'BOARD', parentId: room.body.id },
      { placeId: cabinet.body.id, name: 'Armoire', kind: 'CABINET', parentId: null },
    ])
    expect(events[0]!.actorId).toBe(admin.id)
  })

  it('refuses a place under a board or cabinet and beyond the depth limit (409), keeps nothing', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const { board } = await makeBoard(t, organization.id)
    const cabinet = await makePlace(t, organization.id, { kind: 'CABINET' })
    for (const parentId of [board.id, cabinet.id]) {
      const refused = await create(admin.cookie, { name: 'Under', kind: 'ROOM', parentId })
      expect(refused.status).toBe(409)
      expect(refused.body.error?.code).toBe('place_tree_refused')
    }
    let parentId: string | null = null
    for (let depth = 0; depth <= PLACE_DEPTH_MAX; depth += 1) {
      const made = await create(admin.cookie, { name: `L${depth}`, kind: 'ROOM', parentId })
      expect(made.status).toBe(201)
      expect(made.body.depth).toBe(depth)
      parentId = made.body.id
    }
    const tooDeep = await create(admin.cookie, { name: 'Deeper', kind: 'BOARD', parentId })
    expect(tooDeep.status).toBe(409)
    expect(tooDeep.body.error?.code).toBe('place_tree_refused')
    expect(await t.db.select().from(places).where(eq(places.name, 'Deeper'))).toEqual([])
  })

  it('answers 400 for a bad kind or an empty name, 404 for another organization’s parent, 403 to a member', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    expect((await create(admin.cookie, { name: 'X', kind: 'DRAWER' })).status).toBe(400)
    expect((await create(admin.cookie, { name: '  ', kind: 'SITE' })).status).toBe(400)
    expect((await create(admin.cookie, { name: 'X', kind: 'SITE', extra: 1 })).status).toBe(400)
    const foreign = await organizationWithAdmin(t, 'Foreign')
    const site = await makePlace(t, foreign.organization.id, { kind: 'SITE' })
    expect((await create(admin.cookie, { name: 'X', kind: 'ROOM', parentId: site.id })).status).toBe(404)
    const member = await signedInMember(t, organization.id, 'MEMBER')
    expect((await create(member.cookie, { name: 'X', kind: 'SITE' })).status).toBe(403)
    const manager = await signedInMember(t, organization.id, 'MANAGER')
    expect((await create(manager.cookie, { name: 'X', kind: 'SITE' })).status).toBe(201)
  })
})

describe('PATCH /places/:id', () => {
  const patch = async (cookie: string, id: string, json: unknown) => {
    const response = await t.patch(`/api/places/${id}`, { cookie, json })
    return {
      status: response.status,
      body: (await response.json()) as PlaceDetail & { error?: { code: string } },
    }
  }

  it('renames, and moves a place with its subtree (depths recomputed), with one event each', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const siteA = await makePlace(t, organization.id, { name: 'A', kind: 'SITE' })
    const siteB = await makePlace(t, organization.id, { name: 'B', kind: 'SITE' })
    const roomB = await makePlace(t, organization.id, {
      name: 'RB',
      kind: 'ROOM',
      parentId: siteB.id,
      depth: 1,
    })
    const room = await makePlace(t, organization.id, {
      name: 'R',
      kind: 'ROOM',
      parentId: siteA.id,
      depth: 1,
    })
    const { board } = await makeBoard(t, organization.id, { parentId: room.id, depth: 2 })
    const renamed = await patch(admin.cookie, room.id, { name: 'Salle' })
    expect(renamed.status).toBe(200)
    expect(renamed.body.name).toBe('Salle')
    const moved = await patch(admin.cookie, room.id, { parentId: roomB.id })
    expect(moved.status).toBe(200)
    expect(moved.body).toMatchObject({ parentId: roomB.id, depth: 2 })
    expect(moved.body.path.map((place) => place.name)).toEqual(['B', 'RB'])
    const [movedBoard] = await t.db.select().from(places).where(eq(places.id, board.id))
    expect(movedBoard!.depth).toBe(3)
    const top = await patch(admin.cookie, room.id, { parentId: null })
    expect(top.body).toMatchObject({ parentId: null, depth: 0, path: [] })
    const [boardAtTop] = await t.db.select().from(places).where(eq(places.id, board.id))
    expect(boardAtTop!.depth).toBe(1)
    const events = await eventsOf(t, organization.id, ['place.changed'])
    expect(events.map((event) => event.payload)).toEqual([
      { placeId: room.id, name: { from: 'R', to: 'Salle' } },
      { placeId: room.id, parentId: { from: siteA.id, to: roomB.id } },
      { placeId: room.id, parentId: { from: roomB.id, to: null } },
    ])
  })

  it('refuses a move under itself, a place under it, a board, or beyond the depth limit (409)', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const site = await makePlace(t, organization.id, { kind: 'SITE' })
    const room = await makePlace(t, organization.id, { kind: 'ROOM', parentId: site.id, depth: 1 })
    const { board } = await makeBoard(t, organization.id, { parentId: room.id, depth: 2 })
    const other = await makePlace(t, organization.id, { kind: 'ROOM' })
    for (const [id, parentId] of [
      [site.id, site.id],
      [site.id, room.id],
      [other.id, board.id],
    ] as const) {
      const refused = await patch(admin.cookie, id, { parentId })
      expect(refused.status).toBe(409)
      expect(refused.body.error?.code).toBe('place_tree_refused')
    }
    // A chain as deep as allowed: `site` (with two levels under it) may not go under its deepest level.
    let parentId: string = other.id
    for (let depth = 1; depth <= PLACE_DEPTH_MAX - 2; depth += 1)
      parentId = (await makePlace(t, organization.id, { kind: 'ROOM', parentId, depth })).id
    expect((await patch(admin.cookie, site.id, { parentId })).status).toBe(409)
    const [unmoved] = await t.db.select().from(places).where(eq(places.id, site.id))
    expect(unmoved).toMatchObject({ parentId: null, depth: 0 })
    expect(await eventsOf(t, organization.id, ['place.changed'])).toEqual([])
  })

  it('sets the recurring stocktake due in the organization’s time zone, and clears it', async () => {
    // 2030-01-31T23:30Z is already 1 February in Paris: due 1 March (monthly), 1 May (quarterly).
    t.clock.set(new Date('2030-01-31T23:30:00Z'))
    const { organization, admin } = await organizationWithAdmin(t)
    const { board } = await makeBoard(t, organization.id)
    const monthly = await patch(admin.cookie, board.id, { stocktakeEvery: 'MONTHLY' })
    expect(monthly.body).toMatchObject({ stocktakeEvery: 'MONTHLY', stocktakeDueOn: '2030-03-01' })
    const quarterly = await patch(admin.cookie, board.id, { stocktakeEvery: 'QUARTERLY' })
    expect(quarterly.body).toMatchObject({ stocktakeEvery: 'QUARTERLY', stocktakeDueOn: '2030-05-01' })
    await t.db.update(organizations).set({ timeZone: 'UTC' }).where(eq(organizations.id, organization.id))
    await patch(admin.cookie, board.id, { stocktakeEvery: null })
    const utc = await patch(admin.cookie, board.id, { stocktakeEvery: 'MONTHLY' })
    expect(utc.body.stocktakeDueOn).toBe('2030-02-28')
    const cleared = await patch(admin.cookie, board.id, { stocktakeEvery: null })
    expect(cleared.body).toMatchObject({ stocktakeEvery: null, stocktakeDueOn: null })
  })

  it('answers 400 for nothing to change, 404 for another organization’s place or parent, 403 to a member', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const site = await makePlace(t, organization.id, { kind: 'SITE' })
    expect((await patch(admin.cookie, site.id, {})).status).toBe(400)
    expect((await patch(admin.cookie, site.id, { stocktakeEvery: 'WEEKLY' })).status).toBe(400)
    const foreign = await organizationWithAdmin(t, 'Foreign')
    const foreignSite = await makePlace(t, foreign.organization.id, { kind: 'SITE' })
    expect((await patch(admin.cookie, foreignSite.id, { name: 'Mine' })).status).toBe(404)
    expect((await patch(admin.cookie, site.id, { parentId: foreignSite.id })).status).toBe(404)
    const member = await signedInMember(t, organization.id, 'MEMBER')
    expect((await patch(member.cookie, site.id, { name: 'X' })).status).toBe(403)
  })
})

describe('DELETE /places/:id', () => {
  it('deletes an empty place with its hooks, and appends place.deleted', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const { board } = await makeBoard(t, organization.id, { name: 'Gone' })
    expect((await t.delete(`/api/places/${board.id}`, { cookie: admin.cookie })).status).toBe(204)
    expect(await t.db.select().from(places).where(eq(places.id, board.id))).toEqual([])
    const [event] = await eventsOf(t, organization.id, ['place.deleted'])
    expect(event!.payload).toEqual({ placeId: board.id, name: 'Gone', kind: 'BOARD' })
  })

  it('refuses (409) while places are under it, a keychain lives on its hooks, or a stocktake covers it', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const site = await makePlace(t, organization.id, { kind: 'SITE' })
    const { board, hooks } = await makeBoard(t, organization.id, { parentId: site.id, depth: 1 })
    const refusal = async (id: string) => {
      const response = await t.delete(`/api/places/${id}`, { cookie: admin.cookie })
      expect(response.status).toBe(409)
      return ((await response.json()) as { error: { code: string; message: string } }).error
    }
    expect(await refusal(site.id)).toMatchObject({ code: 'place_in_use' })
    const keychain = await makeKeychain(t, organization.id, 'Homed')
    await setHome(t, keychain.id, hooks[1]!.id)
    expect((await refusal(board.id)).message).toContain('1 keychain')
    await setHome(t, keychain.id, null)
    const [open] = await t.db
      .insert(stocktakes)
      .values({ organizationId: organization.id, placeId: site.id, startedAt: t.clock.now() })
      .returning()
    expect((await refusal(board.id)).message).toContain('open')
    await t.db
      .update(stocktakes)
      .set({ status: 'CLOSED', closedAt: t.clock.now() })
      .where(eq(stocktakes.id, open!.id))
    await t.db
      .insert(stocktakes)
      .values({ organizationId: organization.id, placeId: null, startedAt: t.clock.now() })
    expect((await refusal(board.id)).message).toContain('open')
    await t.db.delete(stocktakes).where(eq(stocktakes.organizationId, organization.id))
    await t.db.insert(stocktakes).values({
      organizationId: organization.id,
      placeId: board.id,
      status: 'CLOSED',
      startedAt: t.clock.now(),
    })
    expect((await refusal(board.id)).message).toContain('on record')
    await t.db.delete(stocktakes).where(eq(stocktakes.organizationId, organization.id))
    expect((await t.delete(`/api/places/${board.id}`, { cookie: admin.cookie })).status).toBe(204)
    expect((await t.delete(`/api/places/${site.id}`, { cookie: admin.cookie })).status).toBe(204)
  })

  it('answers 404 for another organization’s place and 403 to a manager’s inferiors', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const foreign = await organizationWithAdmin(t, 'Foreign')
    const { board } = await makeBoard(t, foreign.organization.id)
    expect((await t.delete(`/api/places/${board.id}`, { cookie: admin.cookie })).status).toBe(404)
    const own = await makePlace(t, organization.id, { kind: 'SITE' })
    const member = await signedInMember(t, organization.id, 'MEMBER')
    expect((await t.delete(`/api/places/${own.id}`, { cookie: member.cookie })).status).toBe(403)
  })
})
