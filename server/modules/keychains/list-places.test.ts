// Issue 40: the keychain list filters by place (homes in its subtree) and sorts by place, and each row says
// where the keychain is (its home, its whereabouts).
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import type { KeychainSummary } from '../../../contract/keychains.ts'
import { makeKeychain, organizationWithAdmin } from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { makeBoard, makePlace, setHome } from '../../../tests/server/places.ts'
import { makeTransfer } from '../../../tests/server/transfers.ts'
import { keychains } from '../../db/schema.ts'
import { whereabouts } from '../../shared/places.ts'

const t = setupTestApp()

type Page = { data: KeychainSummary[]; nextCursor: string | null }

async function list(cookie: string, query: Record<string, string> = {}) {
  const response = await t.get(`/api/keychains?${new URLSearchParams(query)}`, { cookie })
  return { status: response.status, body: (await response.json()) as Page }
}

async function all(cookie: string, query: Record<string, string>, limit: number): Promise<KeychainSummary[]> {
  const rows: KeychainSummary[] = []
  let cursor: string | null = null
  for (let guard = 0; guard < 50; guard += 1) {
    const page = await list(cookie, { ...query, limit: String(limit), ...(cursor ? { cursor } : {}) })
    expect(page.status).toBe(200)
    rows.push(...page.body.data)
    cursor = page.body.nextCursor
    if (!cursor) return rows
  }
  throw new Error('the list never ended')
}

/** A site with a room holding board "B" (3 hooks) and board "a" (3 hooks), and a board "C" at the top. */
async function boards() {
  const { organization, admin } = await organizationWithAdmin(t)
  const site = await makePlace(t, organization.id, { name: 'Site', kind: 'SITE' })
  const room = await makePlace(t, organization.id, {
    name: 'Room',
    kind: 'ROOM',
    parentId: site.id,
    depth: 1,
  })
  const b = await makeBoard(t, organization.id, { name: 'B', parentId: room.id, depth: 2 })
  const a = await makeBoard(t, organization.id, { name: 'a', parentId: room.id, depth: 2 })
  const c = await makeBoard(t, organization.id, { name: 'C' })
  const homed = async (name: string, hookId: string | null) => {
    const keychain = await makeKeychain(t, organization.id, name)
    if (hookId) await setHome(t, keychain.id, hookId)
    return keychain
  }
  return { organization, admin, site, room, a, b, c, homed }
}

describe('GET /keychains?placeId=', () => {
  it('keeps the keychains whose home is in the place or under it', async () => {
    const { admin, site, room, a, b, c, homed } = await boards()
    await homed('On A', a.hooks[0]!.id)
    await homed('On B', b.hooks[2]!.id)
    await homed('On C', c.hooks[0]!.id)
    await homed('Nowhere', null)
    const named = async (placeId: string) =>
      (await all(admin.cookie, { placeId }, 2)).map((row) => row.name).sort()
    expect(await named(a.board.id)).toEqual(['On A'])
    expect(await named(room.id)).toEqual(['On A', 'On B'])
    expect(await named(site.id)).toEqual(['On A', 'On B'])
    expect(await named(c.board.id)).toEqual(['On C'])
    const searched = await list(admin.cookie, { placeId: site.id, q: 'On' })
    expect(searched.body.data.map((row) => row.name)).toEqual(['On A', 'On B'])
  })

  it('answers 404 for another organization’s place and 400 for a malformed id', async () => {
    const { admin } = await boards()
    const foreign = await organizationWithAdmin(t, 'Foreign')
    const theirs = await makePlace(t, foreign.organization.id, { kind: 'SITE' })
    expect((await list(admin.cookie, { placeId: theirs.id })).status).toBe(404)
    expect((await list(admin.cookie, { placeId: 'room' })).status).toBe(400)
  })
})

describe('GET /keychains?sort=place', () => {
  it('orders by the home board’s name, then the hook’s position, then the name; no home last; page after page', async () => {
    const { admin, a, b, c, homed } = await boards()
    await homed('Zeta', null)
    await homed('C1', c.hooks[0]!.id)
    await homed('B3', b.hooks[2]!.id)
    await homed('A2 second', a.hooks[1]!.id)
    await homed('A2 first', a.hooks[1]!.id)
    await homed('A1', a.hooks[0]!.id)
    await homed('Alpha', null)
    const expected = ['A1', 'A2 first', 'A2 second', 'B3', 'C1', 'Alpha', 'Zeta']
    for (const limit of [1, 2, 3, 25])
      expect(
        (await all(admin.cookie, { sort: 'place' }, limit)).map((row) => row.name),
        String(limit),
      ).toEqual(expected)
  })

  it('refuses a cursor of another order or a tampered one (400)', async () => {
    const { admin, homed, a } = await boards()
    await homed('One', a.hooks[0]!.id)
    await homed('Two', a.hooks[1]!.id)
    const byName = await list(admin.cookie, { limit: '1' })
    expect((await list(admin.cookie, { sort: 'place', cursor: byName.body.nextCursor! })).status).toBe(400)
    const byPlace = await list(admin.cookie, { sort: 'place', limit: '1' })
    const [letter, , name, id, , sortName, keychainId] = JSON.parse(
      Buffer.from(byPlace.body.nextCursor!, 'base64url').toString(),
    ) as string[]
    for (const values of [
      [letter, 'maybe', name, id, '1', sortName, keychainId],
      [letter, 'false', name, id, 'one', sortName, keychainId],
    ]) {
      const cursor = Buffer.from(JSON.stringify(values)).toString('base64url')
      expect((await list(admin.cookie, { sort: 'place', cursor })).status).toBe(400)
    }
  })
})

describe('each row’s home and whereabouts', () => {
  it('names the home hook and says where it is, as GET /keychains/:id/location does', async () => {
    const { organization, admin, a, homed } = await boards()
    const atHome = await homed('At home', a.hooks[0]!.id)
    const misplaced = await homed('Misplaced', a.hooks[0]!.id)
    await t.db.update(keychains).set({ hookId: a.hooks[2]!.id }).where(eq(keychains.id, misplaced.id))
    const held = await homed('Held', a.hooks[1]!.id)
    await t.db.update(keychains).set({ custodianId: admin.id }).where(eq(keychains.id, held.id))
    const lent = await homed('Lent', null)
    await makeTransfer(t, {
      organizationId: organization.id,
      keychainId: lent.id,
      recipientId: admin.id,
      status: 'TRANSFERRED',
    })
    const unknown = await homed('Unknown', null)
    const rows = await all(admin.cookie, {}, 25)
    const byId = new Map(rows.map((row) => [row.id, row]))
    expect(byId.get(atHome.id)).toMatchObject({
      whereabouts: 'AT_HOME',
      home: { id: a.hooks[0]!.id, code: 'A-01', placeId: a.board.id, placeName: 'a' },
    })
    expect(byId.get(misplaced.id)?.whereabouts).toBe('MISPLACED')
    expect(byId.get(held.id)?.whereabouts).toBe('HELD')
    expect(byId.get(lent.id)).toMatchObject({ whereabouts: 'HELD', home: null })
    expect(byId.get(unknown.id)).toMatchObject({ whereabouts: 'UNKNOWN', home: null })
    // The SQL rule and the JavaScript one agree on every row.
    const stored = await t.db.select().from(keychains).where(eq(keychains.organizationId, organization.id))
    for (const row of stored) expect(byId.get(row.id)?.whereabouts, row.name).toBe(whereabouts(row))
    for (const row of rows) {
      const response = await t.get(`/api/keychains/${row.id}/location`, { cookie: admin.cookie })
      expect(((await response.json()) as { whereabouts: string }).whereabouts, row.name).toBe(row.whereabouts)
    }
  })
})
