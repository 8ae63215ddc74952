import { randomUUID } from 'node:crypto'
import { and, asc, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import {
  makeKeychain,
  makeTags,
  organizationWithAdmin,
  signedInMember,
} from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { keychains, keys, organizationEvents } from '../../db/schema.ts'

const t = setupTestApp()

async function world() {
  const { organization, admin } = await organizationWithAdmin(t, 'Pairing')
  const manager = await signedInMember(t, organization.id, 'MANAGER')
  const member = await signedInMember(t, organization.id, 'MEMBER')
  const tags = await makeTags(t, organization.id, 3)
  return { organization, admin, manager, member, tags }
}

const create = (cookie: string, json: unknown, key?: string) =>
  t.post('/api/keychains', { cookie, json, headers: key ? { 'idempotency-key': key } : {} })
const attach = (cookie: string, keychainId: string, json: unknown, key?: string) =>
  t.post(`/api/keychains/${keychainId}/keys`, {
    cookie,
    json,
    headers: key ? { 'idempotency-key': key } : {},
  })
const keychainsOf = (organizationId: string) =>
  t.db.select().from(keychains).where(eq(keychains.organizationId, organizationId))
const kindsOf = async (organizationId: string) =>
  (
    await t.db
      .select({ kind: organizationEvents.kind })
      .from(organizationEvents)
      .where(and(eq(organizationEvents.organizationId, organizationId)))
      .orderBy(asc(organizationEvents.seq))
  ).map((row) => row.kind)

describe('pairing a scanned free tag: POST /api/keychains with firstKey', () => {
  it('creates the keychain with its TAG key in one request, with the usual ledger events', async () => {
    const w = await world()
    const before = await kindsOf(w.organization.id)
    const response = await create(w.manager.cookie, {
      name: 'Cave 12',
      firstKey: { type: 'TAG', name: 'Cave 12', tagId: w.tags[0]!.id },
    })
    expect(response.status).toBe(201)
    const body = await response.json()
    expect(body).toMatchObject({ name: 'Cave 12', keys: [{ type: 'TAG', tag: { id: w.tags[0]!.id } }] })
    expect((await kindsOf(w.organization.id)).slice(before.length)).toEqual(['keychain.created', 'key.added'])
    const list = await (await t.get('/api/tags', { cookie: w.manager.cookie })).json()
    const tag = list.data.find((each: { id: string }) => each.id === w.tags[0]!.id)
    expect(tag.key).toMatchObject({ keychainId: body.id, keychainName: 'Cave 12' })
  })

  it('replays the same answer for the same Idempotency-Key: one keychain', async () => {
    const w = await world()
    const key = randomUUID()
    const json = { name: 'Garage', firstKey: { type: 'TAG', name: 'Garage', tagId: w.tags[1]!.id } }
    const first = await create(w.manager.cookie, json, key)
    expect(first.status).toBe(201)
    const again = await create(w.manager.cookie, json, key)
    expect(again.status).toBe(201)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(await again.json()).toEqual(await first.json())
    expect(await keychainsOf(w.organization.id)).toHaveLength(1)
    // The same key for another request is refused.
    const reused = await create(w.manager.cookie, { ...json, name: 'Other' }, key)
    expect(reused.status).toBe(422)
  })

  it('refuses a tag taken meanwhile with 409 tag_taken and creates nothing', async () => {
    const w = await world()
    const other = await makeKeychain(t, w.organization.id, 'Bureau')
    expect(
      (await attach(w.manager.cookie, other.id, { type: 'TAG', name: 'B', tagId: w.tags[0]!.id })).status,
    ).toBe(201)
    const before = await kindsOf(w.organization.id)
    for (const key of [undefined, randomUUID()]) {
      const refused = await create(
        w.manager.cookie,
        { name: 'Cave', firstKey: { type: 'TAG', name: 'Cave', tagId: w.tags[0]!.id } },
        key,
      )
      expect(refused.status).toBe(409)
      expect((await refused.json()).error.code).toBe('tag_taken')
    }
    expect((await keychainsOf(w.organization.id)).map((row) => row.name)).toEqual(['Bureau'])
    expect(await kindsOf(w.organization.id)).toEqual(before)
  })

  it('refuses a bad first key (400), a tag of another organization (400), and a bad Idempotency-Key', async () => {
    const w = await world()
    const foreign = await organizationWithAdmin(t, 'Foreign')
    const [theirs] = await makeTags(t, foreign.organization.id)
    const noTag = await create(w.manager.cookie, { name: 'A', firstKey: { type: 'TAG', name: 'A' } })
    expect(noTag.status).toBe(400)
    const elsewhere = await create(w.manager.cookie, {
      name: 'B',
      firstKey: { type: 'TAG', name: 'B', tagId: theirs!.id },
    })
    expect(elsewhere.status).toBe(400)
    expect((await create(w.manager.cookie, { name: 'C' }, 'not-a-uuid')).status).toBe(400)
    expect(await keychainsOf(w.organization.id)).toHaveLength(0)
  })

  it('is for those who create keychains: a MEMBER gets 403', async () => {
    const w = await world()
    const json = { name: 'A', firstKey: { type: 'TAG', name: 'A', tagId: w.tags[0]!.id } }
    expect((await create(w.member.cookie, json, randomUUID())).status).toBe(403)
    expect((await create(w.admin.cookie, json, randomUUID())).status).toBe(201)
  })
})

describe('attaching a scanned free tag: POST /api/keychains/{id}/keys with an Idempotency-Key', () => {
  it('adds the TAG key once per key; a tag taken meanwhile is 409 tag_taken', async () => {
    const w = await world()
    const cave = await makeKeychain(t, w.organization.id, 'Cave')
    const key = randomUUID()
    const json = { type: 'TAG', name: 'Cave', tagId: w.tags[2]!.id }
    const first = await attach(w.manager.cookie, cave.id, json, key)
    expect(first.status).toBe(201)
    const again = await attach(w.manager.cookie, cave.id, json, key)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(await again.json()).toEqual(await first.json())
    expect(await t.db.select().from(keys).where(eq(keys.keychainId, cave.id))).toHaveLength(1)
    const taken = await attach(w.manager.cookie, cave.id, json, randomUUID())
    expect(taken.status).toBe(409)
    expect((await taken.json()).error.code).toBe('tag_taken')
  })

  it("answers 404 for another organization's keychain, and 403 to a MEMBER", async () => {
    const w = await world()
    const foreign = await organizationWithAdmin(t, 'Foreign')
    const theirs = await makeKeychain(t, foreign.organization.id, 'Theirs')
    const json = { type: 'TAG', name: 'X', tagId: w.tags[0]!.id }
    expect((await attach(w.manager.cookie, theirs.id, json, randomUUID())).status).toBe(404)
    const mine = await makeKeychain(t, w.organization.id, 'Mine')
    expect((await attach(w.member.cookie, mine.id, json, randomUUID())).status).toBe(403)
    expect(await t.db.select().from(keys).where(eq(keys.keychainId, theirs.id))).toHaveLength(0)
  })
})
