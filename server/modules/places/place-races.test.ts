import { randomUUID } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { HOOKS_PER_PLACE_MAX, type PlaceDetail } from '../../../contract/places.ts'
import { organizationWithAdmin } from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { againstAHeldRow } from '../../../tests/server/locks.ts'
import { eventsOf, makeBoard, makePlace } from '../../../tests/server/places.ts'
import { hooks, places } from '../../db/schema.ts'
import { newLocationPublicId } from './public-id.ts'

const t = setupTestApp()

type Answer = PlaceDetail & { error?: { code: string; message: string } }

const lockRow = (id: string) => (tx: Parameters<Parameters<typeof t.db.transaction>[0]>[0]) =>
  tx.execute(sql`select id from places where id = ${id} for update`)

/**
 * Changes to the tree racing each other, interleaved on purpose (PostgreSQL only: PGlite runs one transaction
 * at a time). The first holds a place's row until the request waits for it, then writes and commits.
 */
describe.runIf(process.env.TEST_DATABASE_URL)('changes to places that overlap', () => {
  it('refuses a move that, with a move made meanwhile, would close a loop', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    // A's id comes first: the request, locking every place of the organization in id order for a move, waits
    // on A before it holds any, so the first's write (whose foreign key reads B) does not wait on it in turn.
    const [first, second] = [randomUUID(), randomUUID()].sort()
    const a = await makePlace(t, organization.id, { id: first, name: 'A', kind: 'SITE' })
    const b = await makePlace(t, organization.id, { id: second, name: 'B', kind: 'SITE' })
    // The first moves A under B; the request, moving B under A, waits for it, then sees A under B. Locking only
    // B, it would read the tree as it was and close the loop.
    const response = await againstAHeldRow(
      t,
      {
        lock: lockRow(a.id),
        write: (tx) => tx.update(places).set({ parentId: b.id, depth: 1 }).where(eq(places.id, a.id)),
      },
      () => t.patch(`/api/places/${b.id}`, { cookie: admin.cookie, json: { parentId: a.id } }),
    )
    expect(response.status).toBe(409)
    expect(((await response.json()) as Answer).error?.message).toBe(
      'A place cannot move under itself or a place under it.',
    )
    const [unmoved] = await t.db.select().from(places).where(eq(places.id, b.id))
    expect(unmoved).toMatchObject({ parentId: null, depth: 0 })
  })

  it('answers 404, not a server error, for a place made under a parent deleted meanwhile', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const site = await makePlace(t, organization.id, { kind: 'SITE' })
    const response = await againstAHeldRow(
      t,
      { lock: lockRow(site.id), write: (tx) => tx.delete(places).where(eq(places.id, site.id)) },
      () =>
        t.post('/api/places', { cookie: admin.cookie, json: { name: 'R', kind: 'ROOM', parentId: site.id } }),
    )
    expect(response.status).toBe(404)
    expect(await t.db.select().from(places).where(eq(places.organizationId, organization.id))).toEqual([])
  })

  it('records a rename made meanwhile as the name a second rename replaced', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const room = await makePlace(t, organization.id, { name: 'Salle', kind: 'ROOM' })
    const response = await againstAHeldRow(
      t,
      {
        lock: lockRow(room.id),
        write: (tx) => tx.update(places).set({ name: 'Accueil' }).where(eq(places.id, room.id)),
      },
      () => t.patch(`/api/places/${room.id}`, { cookie: admin.cookie, json: { name: 'Hall' } }),
    )
    expect(response.status).toBe(200)
    expect((await eventsOf(t, organization.id, ['place.changed'])).map((event) => event.payload)).toEqual([
      { placeId: room.id, name: { from: 'Accueil', to: 'Hall' } },
    ])
  })

  it('refuses to delete a place while a place is being made under it', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const site = await makePlace(t, organization.id, { kind: 'SITE' })
    const response = await againstAHeldRow(
      t,
      {
        lock: lockRow(site.id),
        write: (tx) =>
          tx.insert(places).values({
            organizationId: organization.id,
            parentId: site.id,
            kind: 'ROOM',
            name: 'Made meanwhile',
            depth: 1,
            createdAt: t.clock.now(),
            updatedAt: t.clock.now(),
          }),
      },
      () => t.delete(`/api/places/${site.id}`, { cookie: admin.cookie }),
    )
    expect(response.status).toBe(409)
    expect(((await response.json()) as Answer).error?.message).toBe(
      'Places are under it: move or delete them first.',
    )
    expect(await t.db.select().from(places).where(eq(places.organizationId, organization.id))).toHaveLength(2)
  })

  it('counts the hooks added meanwhile against a board’s limit', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const { board } = await makeBoard(t, organization.id, { count: HOOKS_PER_PLACE_MAX - 1 })
    const response = await againstAHeldRow(
      t,
      {
        lock: lockRow(board.id),
        write: (tx) =>
          tx.insert(hooks).values({
            organizationId: organization.id,
            placeId: board.id,
            code: 'LAST',
            position: HOOKS_PER_PLACE_MAX,
            publicId: newLocationPublicId(),
            createdAt: t.clock.now(),
          }),
      },
      () =>
        t.post(`/api/places/${board.id}/hooks`, {
          cookie: admin.cookie,
          json: { prefix: 'B', from: 1, to: 1 },
        }),
    )
    expect(response.status).toBe(409)
    expect(((await response.json()) as Answer).error?.message).toBe(
      `A board holds at most ${HOOKS_PER_PLACE_MAX} hooks: it has ${HOOKS_PER_PLACE_MAX}.`,
    )
    expect(await t.db.select().from(hooks).where(eq(hooks.placeId, board.id))).toHaveLength(
      HOOKS_PER_PLACE_MAX,
    )
  })
})
