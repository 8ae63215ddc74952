import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import type { Place, PlaceDetail } from '../../../contract/places.ts'
import { makeKeychain, organizationWithAdmin } from '../../../tests/server/fixtures.ts'
import { setupTestAppAtEpoch } from '../../../tests/server/harness.ts'
import { makeBoard, makePlace, setHome } from '../../../tests/server/places.ts'
import { statementsOf } from '../../../tests/server/statement-count.ts'
import { keychains, places, stocktakeItems, stocktakeScans, stocktakes } from '../../db/schema.ts'

// The tree's order, its counts and each place's last stocktake, with several places side by side.
const t = setupTestAppAtEpoch()

async function tree(cookie: string): Promise<Place[]> {
  const response = await t.get('/api/places', { cookie })
  expect(response.status).toBe(200)
  return ((await response.json()) as { data: Place[] }).data
}

async function detail(cookie: string, id: string): Promise<PlaceDetail> {
  const response = await t.get(`/api/places/${id}`, { cookie })
  expect(response.status).toBe(200)
  return (await response.json()) as PlaceDetail
}

const minutesOn = (minutes: number) => new Date(t.clock.now().getTime() + minutes * 60_000)

describe('the tree’s order', () => {
  it('puts places of the same name by id, whatever order they were made in', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const site = await makePlace(t, organization.id, { name: 'Site', kind: 'SITE' })
    const roomIds = [randomUUID(), randomUUID(), randomUUID(), randomUUID()].sort()
    const siteIds = [randomUUID(), randomUUID(), randomUUID()].sort()
    const now = t.clock.now()
    const row = (id: string, parentId: string | null) => ({
      id,
      organizationId: organization.id,
      parentId,
      kind: parentId ? ('ROOM' as const) : ('SITE' as const),
      name: 'Même nom',
      depth: parentId ? 1 : 0,
      createdAt: now,
      updatedAt: now,
    })
    // Made in an order that is neither theirs nor its reverse.
    for (const n of [1, 3, 0, 2]) await t.db.insert(places).values(row(roomIds[n]!, site.id))
    for (const n of [1, 2, 0]) await t.db.insert(places).values(row(siteIds[n]!, null))
    expect((await tree(admin.cookie)).map((place) => place.id)).toEqual([...siteIds, site.id, ...roomIds])
  })

  it('lists a place whose parent is not the organization’s at the top, with what is under it', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const foreign = await organizationWithAdmin(t, 'Foreign')
    const elsewhere = await makePlace(t, foreign.organization.id, { name: 'Ailleurs', kind: 'SITE' })
    const stray = await makePlace(t, organization.id, {
      name: 'B égaré',
      kind: 'ROOM',
      parentId: elsewhere.id,
      depth: 1,
    })
    const { board, hooks } = await makeBoard(t, organization.id, {
      name: 'Tableau',
      parentId: stray.id,
      depth: 2,
    })
    await setHome(t, (await makeKeychain(t, organization.id, 'K')).id, hooks[0]!.id)
    await makePlace(t, organization.id, { name: 'A', kind: 'SITE' })
    await makePlace(t, organization.id, { name: 'C', kind: 'SITE' })
    const list = await tree(admin.cookie)
    expect(list.map((place) => place.name)).toEqual(['A', 'B égaré', 'Tableau', 'C'])
    expect(list.find((place) => place.id === stray.id)).toMatchObject({ homeCount: 1, hookCount: 0 })
    expect(list.find((place) => place.id === board.id)).toMatchObject({ homeCount: 1, hookCount: 3 })
    expect((await tree(foreign.admin.cookie)).map((place) => [place.name, place.homeCount])).toEqual([
      ['Ailleurs', 0],
    ])
  })
})

describe('the tree’s counts', () => {
  it('counts each board’s own hooks, and the homes of a subtree’s boards, leaving deleted keychains out', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const site = await makePlace(t, organization.id, { name: 'Site', kind: 'SITE' })
    const one = await makeBoard(t, organization.id, { name: 'One', count: 2, parentId: site.id, depth: 1 })
    const two = await makeBoard(t, organization.id, { name: 'Two', count: 5, parentId: site.id, depth: 1 })
    const home = async (name: string, hookId: string) => {
      const keychain = await makeKeychain(t, organization.id, name)
      await setHome(t, keychain.id, hookId)
      return keychain
    }
    await home('K10', one.hooks[0]!.id)
    const k2 = await home('K2', one.hooks[0]!.id)
    const k10 = (await t.db.select().from(keychains).where(eq(keychains.name, 'K10')))[0]!
    await home('T1', two.hooks[1]!.id)
    await home('T2', two.hooks[2]!.id)
    await home('T3', two.hooks[4]!.id)
    const deleted = await home('Deleted', two.hooks[4]!.id)
    await t.db.update(keychains).set({ deletedAt: t.clock.now() }).where(eq(keychains.id, deleted.id))
    const counts = (await tree(admin.cookie)).map((place) => [place.name, place.hookCount, place.homeCount])
    expect(counts).toEqual([
      ['Site', 0, 5],
      ['One', 2, 2],
      ['Two', 5, 3],
    ])
    const oneDetail = await detail(admin.cookie, one.board.id)
    expect(oneDetail.hooks[0]!.homeOf).toEqual([
      { id: k2.id, name: 'K2' },
      { id: k10.id, name: 'K10' },
    ])
    const twoDetail = await detail(admin.cookie, two.board.id)
    expect(twoDetail.hooks.map((hook) => hook.homeOf.map((keychain) => keychain.name))).toEqual([
      [],
      ['T1'],
      ['T2'],
      [],
      ['T3'],
    ])
  })

  it('orders a board’s hooks by number, then by code for hooks of the same number', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const { board } = await makeBoard(t, organization.id, { count: 0 })
    for (const prefix of ['C-', 'A-', 'B-'])
      await t.post(`/api/places/${board.id}/hooks`, {
        cookie: admin.cookie,
        json: { prefix, from: 1, to: 2 },
      })
    expect((await detail(admin.cookie, board.id)).hooks.map((hook) => hook.code)).toEqual([
      'A-01',
      'B-01',
      'C-01',
      'A-02',
      'B-02',
      'C-02',
    ])
  })

  it('gives the path from the top through every level', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const site = await makePlace(t, organization.id, { name: 'Site', kind: 'SITE' })
    const floor = await makePlace(t, organization.id, {
      name: 'Étage',
      kind: 'ROOM',
      parentId: site.id,
      depth: 1,
    })
    const room = await makePlace(t, organization.id, {
      name: 'Salle',
      kind: 'ROOM',
      parentId: floor.id,
      depth: 2,
    })
    const { board } = await makeBoard(t, organization.id, { parentId: room.id, depth: 3 })
    expect((await detail(admin.cookie, board.id)).path.map((place) => place.name)).toEqual([
      'Site',
      'Étage',
      'Salle',
    ])
    expect((await detail(admin.cookie, site.id)).path).toEqual([])
  })
})

describe('each place’s last stocktake', () => {
  it('is the last closed one of that place, with that stocktake’s own counts, beside another place’s', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const one = await makeBoard(t, organization.id, { name: 'One', count: 0 })
    const two = await makeBoard(t, organization.id, { name: 'Two', count: 0 })
    await makeBoard(t, organization.id, { name: 'Three', count: 0 })
    const empty = await makeBoard(t, organization.id, { name: 'Four', count: 0 })
    const keychainIds: string[] = []
    for (let n = 0; n < 6; n += 1) keychainIds.push((await makeKeychain(t, organization.id, `K${n}`)).id)
    const closed = (placeId: string | null, minutes: number) => ({
      organizationId: organization.id,
      placeId,
      status: 'CLOSED' as const,
      startedAt: minutesOn(minutes - 1),
      closedAt: minutesOn(minutes),
    })
    // Inserted newest first: the last one is found by its closing time, not by the order it was made in.
    const [oneLast, oneOlder, twoLast, whole] = await t.db
      .insert(stocktakes)
      .values([
        closed(one.board.id, 30),
        closed(one.board.id, 10),
        closed(two.board.id, 20),
        closed(null, 40),
      ])
      .returning()
    const [emptyLast] = await t.db.insert(stocktakes).values(closed(empty.board.id, 25)).returning()
    await t.db
      .insert(stocktakes)
      .values({ organizationId: organization.id, placeId: one.board.id, startedAt: minutesOn(50) })
    const item = (stocktakeId: string, n: number, state: 'FOUND' | 'MISSING' | 'MISPLACED') => ({
      stocktakeId,
      keychainId: keychainIds[n]!,
      state,
    })
    await t.db
      .insert(stocktakeItems)
      .values([
        item(oneLast!.id, 0, 'FOUND'),
        item(oneLast!.id, 1, 'MISSING'),
        item(oneLast!.id, 2, 'MISSING'),
        item(oneOlder!.id, 0, 'MISPLACED'),
        item(twoLast!.id, 3, 'MISPLACED'),
        item(twoLast!.id, 4, 'MISPLACED'),
        item(twoLast!.id, 5, 'MISPLACED'),
        item(twoLast!.id, 0, 'FOUND'),
        item(whole!.id, 1, 'FOUND'),
      ])
    let seq = 0
    const scan = (
      stocktakeId: string,
      outcome: 'UNEXPECTED' | 'UNKNOWN' | 'MISPLACED',
      keychainId: string | null,
    ) => {
      seq += 1
      return {
        id: randomUUID(),
        stocktakeId,
        seq,
        value: keychainId ? `K-${seq}` : 'NOT-A-TAG',
        keychainId,
        outcome,
        answer: {},
        deviceId: 'device-one',
        deviceSeq: seq,
        receivedAt: minutesOn(5),
      }
    }
    await t.db
      .insert(stocktakeScans)
      .values([
        scan(oneLast!.id, 'UNEXPECTED', keychainIds[5]!),
        scan(oneLast!.id, 'UNEXPECTED', keychainIds[5]!),
        scan(oneLast!.id, 'UNKNOWN', null),
        scan(oneLast!.id, 'MISPLACED', keychainIds[4]!),
        scan(twoLast!.id, 'UNKNOWN', null),
      ])
    const last = new Map((await tree(admin.cookie)).map((place) => [place.name, place.lastStocktake]))
    expect(last.get('One')).toEqual({
      id: oneLast!.id,
      closedAt: minutesOn(30).toISOString(),
      found: 1,
      missing: 2,
      misplaced: 0,
      unexpected: 2,
    })
    expect(last.get('Two')).toEqual({
      id: twoLast!.id,
      closedAt: minutesOn(20).toISOString(),
      found: 1,
      missing: 0,
      misplaced: 3,
      unexpected: 1,
    })
    expect(last.get('Three')).toBeNull()
    expect(last.get('Four')).toEqual({
      id: emptyLast!.id,
      closedAt: minutesOn(25).toISOString(),
      found: 0,
      missing: 0,
      misplaced: 0,
      unexpected: 0,
    })
  })
})

describe('what the tree and a place cost', () => {
  const statementsAbout = async (path: string, cookie: string, table: RegExp) => {
    const run = await statementsOf(() => t.get(path, { cookie }))
    expect(run.result.status).toBe(200)
    return run.statements.filter((statement) => table.test(statement)).length
  }
  const stocktakeDetails = /"stocktake_(items|scans)"/
  const homesOfHooks = /"keychains"\."sort_name"/

  it('reads no stocktake’s items or scans until one has closed', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const { board } = await makeBoard(t, organization.id)
    await t.db
      .insert(stocktakes)
      .values({ organizationId: organization.id, placeId: board.id, startedAt: t.clock.now() })
    expect(await statementsAbout('/api/places', admin.cookie, stocktakeDetails)).toBe(0)
    await t.db
      .update(stocktakes)
      .set({ status: 'CLOSED', closedAt: t.clock.now() })
      .where(eq(stocktakes.organizationId, organization.id))
    expect(await statementsAbout('/api/places', admin.cookie, stocktakeDetails)).toBe(2)
  })

  it('looks for no keychain’s home on a place without hooks', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const room = await makePlace(t, organization.id, { kind: 'ROOM' })
    const { board } = await makeBoard(t, organization.id, { count: 2 })
    expect(await statementsAbout(`/api/places/${room.id}`, admin.cookie, homesOfHooks)).toBe(0)
    expect(await statementsAbout(`/api/places/${board.id}`, admin.cookie, homesOfHooks)).toBe(1)
  })
})

describe('a place that is not there', () => {
  it('is a 404 that says so, for another organization’s place or one deleted', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const foreign = await organizationWithAdmin(t, 'Foreign')
    const elsewhere = await makePlace(t, foreign.organization.id, { kind: 'SITE' })
    const gone = await makePlace(t, organization.id, { kind: 'SITE' })
    await t.db.delete(places).where(eq(places.id, gone.id))
    for (const id of [elsewhere.id, gone.id])
      for (const response of [
        await t.get(`/api/places/${id}`, { cookie: admin.cookie }),
        await t.patch(`/api/places/${id}`, { cookie: admin.cookie, json: { name: 'Mine' } }),
        await t.delete(`/api/places/${id}`, { cookie: admin.cookie }),
      ]) {
        expect(response.status).toBe(404)
        expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
          'No such place.',
        )
      }
  })
})
