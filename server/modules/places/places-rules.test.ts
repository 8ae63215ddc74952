import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { HOOKS_PER_PLACE_MAX, PLACE_DEPTH_MAX, type PlaceDetail } from '../../../contract/places.ts'
import { makeKeychain, organizationWithAdmin } from '../../../tests/server/fixtures.ts'
import { setupTestAppAtEpoch } from '../../../tests/server/harness.ts'
import { eventsOf, makeBoard, makePlace, setHome } from '../../../tests/server/places.ts'
import { keychains, places, stocktakes } from '../../db/schema.ts'

// The rules of creating, moving, renaming and deleting places, each refusal with its code and its words.
const t = setupTestAppAtEpoch()

type Answer = PlaceDetail & { error?: { code: string; message: string } }

async function send(method: 'post' | 'patch', path: string, cookie: string, json: unknown) {
  const response = await t[method](path, { cookie, json })
  return { status: response.status, body: (await response.json()) as Answer }
}

const create = (cookie: string, json: unknown) => send('post', '/api/places', cookie, json)
const patch = (cookie: string, id: string, json: unknown) => send('patch', `/api/places/${id}`, cookie, json)

async function remove(cookie: string, id: string) {
  const response = await t.delete(`/api/places/${id}`, { cookie })
  const text = await response.text()
  return { status: response.status, error: text ? (JSON.parse(text) as Answer).error : undefined }
}

/** A chain of rooms under `parentId` (at `depth`), `levels` deep; gives the deepest. */
async function chain(organizationId: string, parentId: string | null, depth: number, levels: number) {
  let at = { id: parentId, depth: depth - 1 }
  for (let level = 0; level < levels; level += 1) {
    const room = await makePlace(t, organizationId, {
      name: `L${at.depth + 1}`,
      kind: 'ROOM',
      parentId: at.id,
      depth: at.depth + 1,
    })
    at = { id: room.id, depth: room.depth }
  }
  return at as { id: string; depth: number }
}

const depthOf = async (id: string) =>
  (await t.db.select({ depth: places.depth }).from(places).where(eq(places.id, id)))[0]?.depth

describe('creating a place', () => {
  it('names the board or cabinet it refused to put a place under', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const { board } = await makeBoard(t, organization.id, { name: 'Tableau du hall' })
    const cabinet = await makePlace(t, organization.id, { name: 'Armoire forte', kind: 'CABINET' })
    expect((await create(admin.cookie, { name: 'X', kind: 'ROOM', parentId: board.id })).body.error).toEqual({
      code: 'place_tree_refused',
      message: '“Tableau du hall” is a board or a cabinet: it holds hooks, not places.',
    })
    const underCabinet = await create(admin.cookie, { name: 'X', kind: 'BOARD', parentId: cabinet.id })
    expect(underCabinet.status).toBe(409)
    expect(underCabinet.body.error?.message).toBe(
      '“Armoire forte” is a board or a cabinet: it holds hooks, not places.',
    )
  })

  it('says how deep a place may be when the parent is at the deepest level', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const deepest = await chain(organization.id, null, 0, PLACE_DEPTH_MAX + 1)
    expect(deepest.depth).toBe(PLACE_DEPTH_MAX)
    const refused = await create(admin.cookie, { name: 'Too deep', kind: 'ROOM', parentId: deepest.id })
    expect(refused.status).toBe(409)
    expect(refused.body.error).toEqual({
      code: 'place_tree_refused',
      message: `A place may be at most ${PLACE_DEPTH_MAX} levels under a top-level place.`,
    })
  })
})

describe('moving a place', () => {
  it('moves a subtree to exactly the deepest level allowed, and refuses one level deeper', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    // A room at depth 1 with a board under it: the subtree is two levels tall.
    const site = await makePlace(t, organization.id, { kind: 'SITE' })
    const room = await makePlace(t, organization.id, { kind: 'ROOM', parentId: site.id, depth: 1 })
    const { board } = await makeBoard(t, organization.id, { parentId: room.id, depth: 2 })
    const tooDeep = await chain(organization.id, null, 0, PLACE_DEPTH_MAX)
    const refused = await patch(admin.cookie, room.id, { parentId: tooDeep.id })
    expect(refused.status).toBe(409)
    expect(refused.body.error).toEqual({
      code: 'place_tree_refused',
      message: `A place may be at most ${PLACE_DEPTH_MAX} levels under a top-level place.`,
    })
    const deepEnough = await chain(organization.id, null, 0, PLACE_DEPTH_MAX - 1)
    const moved = await patch(admin.cookie, room.id, { parentId: deepEnough.id })
    expect(moved.status).toBe(200)
    expect(moved.body).toMatchObject({ parentId: deepEnough.id, depth: PLACE_DEPTH_MAX - 1 })
    expect(await depthOf(board.id)).toBe(PLACE_DEPTH_MAX)
  })

  it('moves a subtree up as well as down: every place under it follows by the same shift', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const deep = await chain(organization.id, null, 0, 3)
    const room = await makePlace(t, organization.id, { kind: 'ROOM', parentId: deep.id, depth: 3 })
    const inner = await makePlace(t, organization.id, { kind: 'ROOM', parentId: room.id, depth: 4 })
    const { board } = await makeBoard(t, organization.id, { parentId: inner.id, depth: 5 })
    const site = await makePlace(t, organization.id, { kind: 'SITE' })
    expect((await patch(admin.cookie, room.id, { parentId: site.id })).body.depth).toBe(1)
    expect([await depthOf(inner.id), await depthOf(board.id)]).toEqual([2, 3])
  })

  it('refuses a move under itself or under a place below it, in words', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const site = await makePlace(t, organization.id, { kind: 'SITE' })
    const room = await makePlace(t, organization.id, { kind: 'ROOM', parentId: site.id, depth: 1 })
    const inner = await makePlace(t, organization.id, { kind: 'ROOM', parentId: room.id, depth: 2 })
    for (const parentId of [site.id, room.id, inner.id]) {
      const refused = await patch(admin.cookie, site.id, { parentId })
      expect(refused.status).toBe(409)
      expect(refused.body.error).toEqual({
        code: 'place_tree_refused',
        message: 'A place cannot move under itself or a place under it.',
      })
    }
  })

  it('names the board it refused to move a place under', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const { board } = await makeBoard(t, organization.id, { name: 'Tableau B' })
    const room = await makePlace(t, organization.id, { kind: 'ROOM' })
    const refused = await patch(admin.cookie, room.id, { parentId: board.id })
    expect(refused.body.error).toEqual({
      code: 'place_tree_refused',
      message: '“Tableau B” is a board or a cabinet: it holds hooks, not places.',
    })
  })
})

describe('changing a place to what it already is', () => {
  it('changes nothing and records no event for the same name, parent or recurring stocktake', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const site = await makePlace(t, organization.id, { name: 'Site', kind: 'SITE' })
    const room = await makePlace(t, organization.id, {
      name: 'Salle',
      kind: 'ROOM',
      parentId: site.id,
      depth: 1,
    })
    const monthly = await patch(admin.cookie, room.id, { stocktakeEvery: 'MONTHLY' })
    expect(monthly.body.stocktakeDueOn).toBe('2030-02-15')
    const before = (await t.db.select().from(places).where(eq(places.id, room.id)))[0]
    t.clock.advance(2 * 24 * 3600_000)
    for (const update of [
      { name: 'Salle' },
      { parentId: site.id },
      { stocktakeEvery: 'MONTHLY' },
      { name: 'Salle', parentId: site.id, stocktakeEvery: 'MONTHLY' },
    ]) {
      const same = await patch(admin.cookie, room.id, update)
      expect(same.status, JSON.stringify(update)).toBe(200)
      expect(same.body).toMatchObject({
        name: 'Salle',
        parentId: site.id,
        depth: 1,
        stocktakeEvery: 'MONTHLY',
        stocktakeDueOn: '2030-02-15',
      })
    }
    expect((await t.db.select().from(places).where(eq(places.id, room.id)))[0]).toEqual(before)
    const top = await patch(admin.cookie, site.id, { parentId: null })
    expect(top.body).toMatchObject({ parentId: null, depth: 0 })
    expect((await eventsOf(t, organization.id, ['place.changed'])).map((event) => event.payload)).toEqual([
      { placeId: room.id, stocktakeEvery: { from: null, to: 'MONTHLY' } },
    ])
  })

  it('records only what changed when a rename, a move and a stocktake come together', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const siteA = await makePlace(t, organization.id, { name: 'A', kind: 'SITE' })
    const siteB = await makePlace(t, organization.id, { name: 'B', kind: 'SITE' })
    const room = await makePlace(t, organization.id, {
      name: 'R',
      kind: 'ROOM',
      parentId: siteA.id,
      depth: 1,
    })
    const changed = await patch(admin.cookie, room.id, {
      name: 'R2',
      parentId: siteB.id,
      stocktakeEvery: 'QUARTERLY',
    })
    expect(changed.body).toMatchObject({
      name: 'R2',
      parentId: siteB.id,
      depth: 1,
      stocktakeEvery: 'QUARTERLY',
      stocktakeDueOn: '2030-04-15',
    })
    const renamedOnly = await patch(admin.cookie, room.id, {
      name: 'R3',
      parentId: siteB.id,
      stocktakeEvery: 'QUARTERLY',
    })
    expect(renamedOnly.body).toMatchObject({ name: 'R3', parentId: siteB.id, stocktakeDueOn: '2030-04-15' })
    expect((await eventsOf(t, organization.id, ['place.changed'])).map((event) => event.payload)).toEqual([
      {
        placeId: room.id,
        name: { from: 'R', to: 'R2' },
        parentId: { from: siteA.id, to: siteB.id },
        stocktakeEvery: { from: null, to: 'QUARTERLY' },
      },
      { placeId: room.id, name: { from: 'R2', to: 'R3' } },
    ])
  })
})

describe('deleting a place in use', () => {
  const refusal = async (cookie: string, id: string) => {
    const answer = await remove(cookie, id)
    expect(answer.status).toBe(409)
    return answer.error
  }

  it('says why, in words, for places under it, keychains on its hooks, an open or a recorded stocktake', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const site = await makePlace(t, organization.id, { kind: 'SITE' })
    const { board, hooks } = await makeBoard(t, organization.id, { parentId: site.id, depth: 1 })
    expect(await refusal(admin.cookie, site.id)).toEqual({
      code: 'place_in_use',
      message: 'Places are under it: move or delete them first.',
    })
    for (const [index, hook] of [hooks[0]!, hooks[2]!].entries())
      await setHome(t, (await makeKeychain(t, organization.id, `K${index}`)).id, hook.id)
    expect(await refusal(admin.cookie, board.id)).toEqual({
      code: 'place_in_use',
      message: '2 keychain(s) live on its hooks: give them another home first.',
    })
    await t.db
      .update(keychains)
      .set({ homeHookId: null })
      .where(eq(keychains.organizationId, organization.id))
    const [open] = await t.db
      .insert(stocktakes)
      .values({ organizationId: organization.id, placeId: board.id, startedAt: t.clock.now() })
      .returning()
    expect(await refusal(admin.cookie, board.id)).toEqual({
      code: 'place_in_use',
      message: 'A stocktake covering it is open: close it first.',
    })
    await t.db
      .update(stocktakes)
      .set({ status: 'CLOSED', closedAt: t.clock.now() })
      .where(eq(stocktakes.id, open!.id))
    expect(await refusal(admin.cookie, board.id)).toEqual({
      code: 'place_in_use',
      message: 'Stocktakes of this place are on record: it stays in their reports.',
    })
  })

  it('is refused while an open stocktake covers a place two levels above it', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const site = await makePlace(t, organization.id, { kind: 'SITE' })
    const room = await makePlace(t, organization.id, { kind: 'ROOM', parentId: site.id, depth: 1 })
    const { board } = await makeBoard(t, organization.id, { parentId: room.id, depth: 2 })
    await t.db
      .insert(stocktakes)
      .values({ organizationId: organization.id, placeId: site.id, startedAt: t.clock.now() })
    expect((await refusal(admin.cookie, board.id))?.message).toBe(
      'A stocktake covering it is open: close it first.',
    )
  })

  it('goes ahead despite stocktakes that do not cover it or are closed above it, and keychains deleted', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const site = await makePlace(t, organization.id, { kind: 'SITE' })
    const sibling = await makePlace(t, organization.id, { kind: 'ROOM', parentId: site.id, depth: 1 })
    const { board, hooks } = await makeBoard(t, organization.id, { parentId: site.id, depth: 1 })
    const now = t.clock.now()
    await t.db.insert(stocktakes).values([
      // Closed, of the place above it: its report is of the site, not of the board.
      { organizationId: organization.id, placeId: site.id, status: 'CLOSED', startedAt: now, closedAt: now },
      // Open, of a place beside it.
      { organizationId: organization.id, placeId: sibling.id, startedAt: now },
    ])
    // Open over the whole of another organization.
    const foreign = await organizationWithAdmin(t, 'Foreign')
    await t.db
      .insert(stocktakes)
      .values({ organizationId: foreign.organization.id, placeId: null, startedAt: now })
    // A deleted keychain whose home was on the board.
    const gone = await makeKeychain(t, organization.id, 'Gone')
    await setHome(t, gone.id, hooks[0]!.id)
    await t.db.update(keychains).set({ deletedAt: now }).where(eq(keychains.id, gone.id))
    expect(await remove(admin.cookie, board.id)).toEqual({ status: 204, error: undefined })
    expect(await t.db.select().from(places).where(eq(places.id, board.id))).toEqual([])
  })

  it('finds the places above it even where the tree loops (a damaged tree), instead of running forever', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const a = await makePlace(t, organization.id, { name: 'A', kind: 'SITE' })
    const b = await makePlace(t, organization.id, { name: 'B', kind: 'ROOM', parentId: a.id, depth: 1 })
    const leaf = await makePlace(t, organization.id, { name: 'Leaf', kind: 'ROOM', parentId: b.id, depth: 2 })
    await t.db.update(places).set({ parentId: b.id }).where(eq(places.id, a.id))
    expect(await remove(admin.cookie, leaf.id)).toEqual({ status: 204, error: undefined })
    await t.db
      .insert(stocktakes)
      .values({ organizationId: organization.id, placeId: a.id, startedAt: t.clock.now() })
    const other = await makePlace(t, organization.id, {
      name: 'Other',
      kind: 'ROOM',
      parentId: b.id,
      depth: 2,
    })
    expect((await refusal(admin.cookie, other.id))?.message).toBe(
      'A stocktake covering it is open: close it first.',
    )
  })
})

describe('hooks in use', () => {
  it('says a site or a room has no hooks, and how many hooks a full board has', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const room = await makePlace(t, organization.id, { kind: 'ROOM' })
    const onRoom = await t.post(`/api/places/${room.id}/hooks`, {
      cookie: admin.cookie,
      json: { prefix: 'A-', from: 1, to: 2 },
    })
    expect(onRoom.status).toBe(409)
    expect(((await onRoom.json()) as Answer).error).toEqual({
      code: 'hooks_refused',
      message: 'Only a board or a cabinet has hooks.',
    })
    const { board } = await makeBoard(t, organization.id, { count: HOOKS_PER_PLACE_MAX - 1 })
    const full = await t.post(`/api/places/${board.id}/hooks`, {
      cookie: admin.cookie,
      json: { prefix: 'B-', from: 1, to: 2 },
    })
    expect(full.status).toBe(409)
    expect(((await full.json()) as Answer).error).toEqual({
      code: 'hooks_refused',
      message: `A board holds at most ${HOOKS_PER_PLACE_MAX} hooks: it has ${HOOKS_PER_PLACE_MAX - 1}.`,
    })
  })

  it('names the hook it refused to remove, and removes one whose keychain was deleted', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const { board, hooks } = await makeBoard(t, organization.id, { count: 2 })
    const homed = await makeKeychain(t, organization.id, 'Homed')
    await setHome(t, homed.id, hooks[1]!.id)
    const refused = await t.delete(`/api/places/${board.id}/hooks/${hooks[1]!.id}`, { cookie: admin.cookie })
    expect(refused.status).toBe(409)
    expect(((await refused.json()) as Answer).error).toEqual({
      code: 'place_in_use',
      message: 'Hook A-02 is a keychain’s home: give it another home first.',
    })
    await t.db.update(keychains).set({ deletedAt: t.clock.now() }).where(eq(keychains.id, homed.id))
    const removed = await t.delete(`/api/places/${board.id}/hooks/${hooks[1]!.id}`, { cookie: admin.cookie })
    expect(removed.status).toBe(204)
    const missing = await t.delete(`/api/places/${board.id}/hooks/${hooks[1]!.id}`, { cookie: admin.cookie })
    expect(missing.status).toBe(404)
    expect(((await missing.json()) as Answer).error?.message).toBe('No such hook.')
  })
})
