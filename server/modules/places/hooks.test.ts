import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import {
  HOOKS_PER_PLACE_MAX,
  LOCATION_PUBLIC_ID_PATTERN,
  type PlaceDetail,
} from '../../../contract/places.ts'
import { makeKeychain, organizationWithAdmin, signedInMember } from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { eventsOf, makeBoard, makePlace, setHome } from '../../../tests/server/places.ts'
import { hooks } from '../../db/schema.ts'

const t = setupTestApp()

type RangeResult = { created: number; skipped: number; hooks: PlaceDetail['hooks'] }

async function addHooks(cookie: string, placeId: string, json: unknown) {
  const response = await t.post(`/api/places/${placeId}/hooks`, { cookie, json })
  return {
    status: response.status,
    body: (await response.json()) as RangeResult & { error?: { code: string } },
  }
}

describe('POST /places/:id/hooks', () => {
  it('numbers a range with the prefix and width, each hook with its own public id, in order', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const { board } = await makeBoard(t, organization.id, { count: 0 })
    const made = await addHooks(admin.cookie, board.id, { prefix: 'a-', from: 1, to: 60 })
    expect(made.status).toBe(201)
    expect(made.body.created).toBe(60)
    expect(made.body.skipped).toBe(0)
    expect(made.body.hooks.map((hook) => hook.code).slice(0, 3)).toEqual(['A-01', 'A-02', 'A-03'])
    expect(made.body.hooks.at(-1)!.code).toBe('A-60')
    const ids = new Set(made.body.hooks.map((hook) => hook.publicId))
    expect(ids.size).toBe(60)
    for (const id of ids) expect(id).toMatch(LOCATION_PUBLIC_ID_PATTERN)
    const wide = await addHooks(admin.cookie, board.id, { prefix: 'B', from: 7, to: 8, width: 3 })
    expect(wide.body.hooks.map((hook) => hook.code)).toEqual(['B007', 'B008'])
    const detail = (await (
      await t.get(`/api/places/${board.id}`, { cookie: admin.cookie })
    ).json()) as PlaceDetail
    expect(detail.hookCount).toBe(62)
    const [event] = await eventsOf(t, organization.id, ['hooks.created'])
    expect(event!.payload).toMatchObject({ placeId: board.id })
    expect((event!.payload as { codes: string[] }).codes).toEqual(made.body.hooks.map((hook) => hook.code))
  })

  it('skips the codes the board already has, and makes nothing when all exist', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const { board } = await makeBoard(t, organization.id, { count: 5 })
    const made = await addHooks(admin.cookie, board.id, { prefix: 'A-', from: 4, to: 8 })
    expect(made.body).toMatchObject({ created: 3, skipped: 2 })
    expect(made.body.hooks.map((hook) => hook.code)).toEqual(['A-06', 'A-07', 'A-08'])
    const again = await addHooks(admin.cookie, board.id, { prefix: 'A-', from: 1, to: 8 })
    expect(again.body).toEqual({ created: 0, skipped: 8, hooks: [] })
    expect(await t.db.select().from(hooks).where(eq(hooks.placeId, board.id))).toHaveLength(8)
    expect(await eventsOf(t, organization.id, ['hooks.created'])).toHaveLength(1)
  })

  it('refuses hooks on a site or room, and beyond the limit of a board (409 hooks_refused)', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const room = await makePlace(t, organization.id, { kind: 'ROOM' })
    const onRoom = await addHooks(admin.cookie, room.id, { prefix: 'A-', from: 1, to: 2 })
    expect(onRoom.status).toBe(409)
    expect(onRoom.body.error?.code).toBe('hooks_refused')
    const { board } = await makeBoard(t, organization.id, { count: 0 })
    for (let from = 0; from < HOOKS_PER_PLACE_MAX; from += 500)
      expect(
        (await addHooks(admin.cookie, board.id, { prefix: 'H', from, to: from + 499, width: 4 })).status,
      ).toBe(201)
    const full = await addHooks(admin.cookie, board.id, { prefix: 'X', from: 1, to: 1 })
    expect(full.status).toBe(409)
    expect(full.body.error?.code).toBe('hooks_refused')
  })

  it('answers 400 for a bad range, 404 for another organization’s board, 403 to a member', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const { board } = await makeBoard(t, organization.id, { count: 0 })
    for (const json of [
      { prefix: 'A-', from: 5, to: 1 },
      { prefix: 'A-', from: 0, to: 500 },
      { prefix: 'A--', from: 1, to: 2 },
      { prefix: 'A B', from: 1, to: 2 },
      { prefix: 'A', from: 1.5, to: 2 },
      { prefix: 'A', from: 1, to: 2, width: 5 },
    ])
      expect((await addHooks(admin.cookie, board.id, json)).status, JSON.stringify(json)).toBe(400)
    const foreign = await organizationWithAdmin(t, 'Foreign')
    const other = await makeBoard(t, foreign.organization.id, { count: 0 })
    expect((await addHooks(admin.cookie, other.board.id, { prefix: 'A', from: 1, to: 2 })).status).toBe(404)
    const member = await signedInMember(t, organization.id, 'MEMBER')
    expect((await addHooks(member.cookie, board.id, { prefix: 'A', from: 1, to: 2 })).status).toBe(403)
  })
})

describe('DELETE /places/:id/hooks/:hookId', () => {
  it('removes a hook, refused (409) while it is a keychain’s home', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const { board, hooks: made } = await makeBoard(t, organization.id, { count: 2 })
    const keychain = await makeKeychain(t, organization.id, 'Homed')
    await setHome(t, keychain.id, made[0]!.id)
    const refused = await t.delete(`/api/places/${board.id}/hooks/${made[0]!.id}`, { cookie: admin.cookie })
    expect(refused.status).toBe(409)
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('place_in_use')
    const removed = await t.delete(`/api/places/${board.id}/hooks/${made[1]!.id}`, { cookie: admin.cookie })
    expect(removed.status).toBe(204)
    expect(
      (await t.db.select().from(hooks).where(eq(hooks.placeId, board.id))).map((hook) => hook.code),
    ).toEqual(['A-01'])
    const [event] = await eventsOf(t, organization.id, ['hook.removed'])
    expect(event!.payload).toEqual({ placeId: board.id, hookId: made[1]!.id, code: 'A-02' })
  })

  it('answers 404 for a hook of another board or organization', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const one = await makeBoard(t, organization.id, { count: 1 })
    const two = await makeBoard(t, organization.id, { count: 1 })
    const foreign = await organizationWithAdmin(t, 'Foreign')
    const other = await makeBoard(t, foreign.organization.id, { count: 1 })
    expect(
      (await t.delete(`/api/places/${one.board.id}/hooks/${two.hooks[0]!.id}`, { cookie: admin.cookie }))
        .status,
    ).toBe(404)
    expect(
      (await t.delete(`/api/places/${other.board.id}/hooks/${other.hooks[0]!.id}`, { cookie: admin.cookie }))
        .status,
    ).toBe(404)
  })
})
