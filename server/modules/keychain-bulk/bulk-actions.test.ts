import { randomUUID } from 'node:crypto'
import { and, asc, eq, inArray } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { BULK_KEYCHAINS_MAX } from '../../../contract/keychain-bulk.ts'
import {
  makeKeychain,
  makeTags,
  organizationWithAdmin,
  signedInMember,
} from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { addTagKey, makeTransfer } from '../../../tests/server/transfers.ts'
import { custodyLog, keychains, keys, organizationEvents, tags } from '../../db/schema.ts'

const t = setupTestApp()

async function world() {
  const { organization, admin } = await organizationWithAdmin(t, 'Bulk')
  const manager = await signedInMember(t, organization.id, 'MANAGER')
  const member = await signedInMember(t, organization.id, 'MEMBER')
  const holder = await signedInMember(t, organization.id, 'MEMBER')
  const made = []
  for (const name of ['Cave A', 'Cave B', 'Cave C', 'Garage', 'Bureau']) {
    made.push(await makeKeychain(t, organization.id, name, holder.id))
  }
  return { organization, admin, manager, member, holder, keychains: made }
}

const custodian = (cookie: string, json: unknown, key: string = randomUUID()) =>
  t.post('/api/keychain-bulk/custodian-changes', { cookie, json, headers: { 'idempotency-key': key } })
const deletion = (cookie: string, json: unknown, key: string = randomUUID()) =>
  t.post('/api/keychain-bulk/deletions', { cookie, json, headers: { 'idempotency-key': key } })

const custodyOf = (keychainId: string) =>
  t.db.select().from(custodyLog).where(eq(custodyLog.keychainId, keychainId))
const eventsOf = (organizationId: string, kind: string) =>
  t.db
    .select()
    .from(organizationEvents)
    .where(and(eq(organizationEvents.organizationId, organizationId), eq(organizationEvents.kind, kind)))
    .orderBy(asc(organizationEvents.seq))
const custodianOf = async (id: string) =>
  (await t.db.select().from(keychains).where(eq(keychains.id, id)))[0]?.custodianId

describe('POST /api/keychain-bulk/custodian-changes', () => {
  it('by ids: one custody entry and one keychain.updated event per keychain, the reason in each', async () => {
    const w = await world()
    const chosen = w.keychains.slice(0, 3)
    const response = await custodian(w.manager.cookie, {
      ids: chosen.map((k) => k.id),
      custodianId: w.member.id,
      reason: 'Inventaire',
    })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ count: 3, unchanged: 0 })
    for (const keychain of chosen) {
      expect(await custodianOf(keychain.id)).toBe(w.member.id)
      const entries = await custodyOf(keychain.id)
      expect(entries).toHaveLength(1)
      expect(entries[0]).toMatchObject({
        fromUserId: w.holder.id,
        toUserId: w.member.id,
        reason: 'Inventaire',
      })
    }
    for (const keychain of w.keychains.slice(3)) expect(await custodianOf(keychain.id)).toBe(w.holder.id)
    const events = await eventsOf(w.organization.id, 'keychain.updated')
    expect(events).toHaveLength(3)
    expect(events.map((e) => e.keychainIds[0]).sort()).toEqual(chosen.map((k) => k.id).sort())
    expect(events[0]?.payload).toEqual({
      custodian: { from: w.holder.id, to: w.member.id },
      reason: 'Inventaire',
    })
    // The log's hash chain still verifies: the activity screen reads it.
    const activity = await t.get('/api/activity', { cookie: w.admin.cookie })
    expect(activity.status).toBe(200)
  })

  it('by filter: all matching the search, resolved by the server; already held ones are left alone', async () => {
    const w = await world()
    const caveA = w.keychains[0]!
    await t.db.update(keychains).set({ custodianId: w.member.id }).where(eq(keychains.id, caveA.id))
    const response = await custodian(w.admin.cookie, {
      filter: { q: 'cave' },
      custodianId: w.member.id,
      reason: 'Tournée',
    })
    expect(await response.json()).toEqual({ count: 2, unchanged: 1 })
    expect(await custodyOf(caveA.id)).toHaveLength(0)
    for (const keychain of w.keychains.slice(1, 3)) expect(await custodyOf(keychain.id)).toHaveLength(1)
    expect(await custodianOf(w.keychains[3]!.id)).toBe(w.holder.id)
    // The custodian filter, and nobody as the new custodian.
    const none = await custodian(w.admin.cookie, {
      filter: { custodianId: w.holder.id },
      custodianId: null,
    })
    expect(await none.json()).toEqual({ count: 2, unchanged: 0 })
    expect(await custodianOf(w.keychains[4]!.id)).toBeNull()
  })

  it('all or nothing: one keychain out on a transfer refuses the change (409), nothing written', async () => {
    const w = await world()
    await makeTransfer(t, {
      organizationId: w.organization.id,
      keychainId: w.keychains[1]!.id,
      recipientId: w.member.id,
      status: 'TRANSFERRED',
    })
    const response = await custodian(w.admin.cookie, {
      ids: w.keychains.map((k) => k.id),
      custodianId: w.member.id,
    })
    expect(response.status).toBe(409)
    expect((await response.json()).error.message).toContain('Cave B')
    for (const keychain of w.keychains) {
      expect(await custodianOf(keychain.id)).toBe(w.holder.id)
      expect(await custodyOf(keychain.id)).toHaveLength(0)
    }
    expect(await eventsOf(w.organization.id, 'keychain.updated')).toHaveLength(0)
  })

  it('replays the same answer for the same Idempotency-Key, writing once', async () => {
    const w = await world()
    const body = { ids: [w.keychains[0]!.id], custodianId: w.member.id, reason: 'Once' }
    const key = randomUUID()
    const first = await custodian(w.admin.cookie, body, key)
    const again = await custodian(w.admin.cookie, body, key)
    expect(again.status).toBe(200)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(await again.json()).toEqual(await first.json())
    expect(await custodyOf(w.keychains[0]!.id)).toHaveLength(1)
    const other = await custodian(w.admin.cookie, { ...body, reason: 'Other' }, key)
    expect(other.status).toBe(422)
  })

  it("another organization's keychain among the ids is a 404, and nothing changes", async () => {
    const w = await world()
    const other = await organizationWithAdmin(t, 'Other')
    const foreign = await makeKeychain(t, other.organization.id, 'Foreign')
    const response = await custodian(w.admin.cookie, {
      ids: [w.keychains[0]!.id, foreign.id],
      custodianId: w.member.id,
    })
    expect(response.status).toBe(404)
    expect(await custodianOf(w.keychains[0]!.id)).toBe(w.holder.id)
    expect(await custodianOf(foreign.id)).toBeNull()
    // A custodian of another organization is a validation error.
    const stranger = await custodian(w.admin.cookie, {
      ids: [w.keychains[0]!.id],
      custodianId: other.admin.id,
    })
    expect(stranger.status).toBe(400)
  })

  it('roles: a MEMBER may not (403); bad selections are 400 with a code', async () => {
    const w = await world()
    const ids = [w.keychains[0]!.id]
    expect((await custodian(w.member.cookie, { ids, custodianId: null })).status).toBe(403)
    for (const json of [
      { custodianId: null },
      { ids, filter: {}, custodianId: null },
      { ids: [], custodianId: null },
      { ids: ['nope'], custodianId: null },
      { ids: Array.from({ length: BULK_KEYCHAINS_MAX + 1 }, () => randomUUID()), custodianId: null },
    ]) {
      const response = await custodian(w.admin.cookie, json)
      expect(response.status).toBe(400)
      expect((await response.json()).error.code).toBe('validation_failed')
    }
    const noKey = await t.post('/api/keychain-bulk/custodian-changes', {
      cookie: w.admin.cookie,
      json: { ids, custodianId: null },
    })
    expect(noKey.status).toBe(400)
  })

  it(`a filter matching more than ${BULK_KEYCHAINS_MAX} keychains is a 400 bulk_selection_too_large`, async () => {
    const w = await world()
    const now = t.clock.now()
    await t.db.insert(keychains).values(
      Array.from({ length: BULK_KEYCHAINS_MAX }, (_, i) => ({
        organizationId: w.organization.id,
        name: `Many ${i}`,
        createdAt: now,
        updatedAt: now,
      })),
    )
    const response = await custodian(w.admin.cookie, { filter: {}, custodianId: w.member.id })
    expect(response.status).toBe(400)
    const { error } = await response.json()
    expect(error.code).toBe('bulk_selection_too_large')
    expect(error.message).toContain(String(BULK_KEYCHAINS_MAX))
    expect(await eventsOf(w.organization.id, 'keychain.updated')).toHaveLength(0)
    // Narrowed to fit, it goes through.
    const narrowed = await custodian(w.admin.cookie, { filter: { q: 'many 1' }, custodianId: w.member.id })
    expect(narrowed.status).toBe(200)
  })
})

describe('POST /api/keychain-bulk/deletions', () => {
  it('by ids: soft-deletes them (keys kept, tags freed and parked for a restore), one keychain.deleted event each', async () => {
    const w = await world()
    const [tagA, tagB] = await makeTags(t, w.organization.id, 2, 'BLK')
    await addTagKey(t, w.keychains[0]!.id, tagA!.id)
    await addTagKey(t, w.keychains[1]!.id, tagB!.id)
    const chosen = w.keychains.slice(0, 2).map((k) => k.id)
    const response = await deletion(w.manager.cookie, { ids: chosen })
    expect(await response.json()).toEqual({ count: 2, unchanged: 0 })
    const gone = await t.db.select().from(keychains).where(inArray(keychains.id, chosen))
    expect(gone.map((row) => row.deletedAt?.toISOString())).toEqual([
      t.clock.now().toISOString(),
      t.clock.now().toISOString(),
    ])
    expect(gone.map((row) => row.deletedById)).toEqual([w.manager.id, w.manager.id])
    const kept = await t.db.select().from(keys).where(inArray(keys.keychainId, chosen))
    expect(kept.map((key) => key.tagId)).toEqual([null, null])
    expect(kept.map((key) => key.parkedTagId).sort()).toEqual([tagA!.id, tagB!.id].sort())
    const listed = await (await t.get('/api/keychains?limit=100', { cookie: w.manager.cookie })).json()
    expect(listed.data.map((row: { id: string }) => row.id)).not.toContain(chosen[0])
    // A deleted keychain is in no later selection.
    expect((await deletion(w.manager.cookie, { ids: chosen })).status).toBe(404)
    const restored = await t.post(`/api/keychains/${chosen[0]}/restore`, { cookie: w.manager.cookie })
    expect((await restored.json()).keys.map((key: { tag: { id: string } }) => key.tag.id)).toEqual([tagA!.id])
    expect(
      await t.db
        .select()
        .from(tags)
        .where(inArray(tags.id, [tagA!.id, tagB!.id])),
    ).toHaveLength(2)
    const events = await eventsOf(w.organization.id, 'keychain.deleted')
    expect(events).toHaveLength(2)
    const byKeychain = new Map(events.map((e) => [e.keychainIds[0], e]))
    expect(byKeychain.get(w.keychains[0]!.id)?.tagIds).toEqual([tagA!.id])
    expect(byKeychain.get(w.keychains[0]!.id)?.payload).toEqual({ name: 'Cave A' })
    expect(byKeychain.get(w.keychains[1]!.id)?.tagIds).toEqual([tagB!.id])
  })

  it('by filter; a guard refusing one refuses all (409); a MEMBER may not; foreign ids 404', async () => {
    const w = await world()
    await makeTransfer(t, {
      organizationId: w.organization.id,
      keychainId: w.keychains[2]!.id,
      recipientId: w.member.id,
    })
    const refused = await deletion(w.admin.cookie, { filter: { q: 'cave' } })
    expect(refused.status).toBe(409)
    expect((await refused.json()).error.message).toContain('Cave C')
    expect(
      await t.db.select().from(keychains).where(eq(keychains.organizationId, w.organization.id)),
    ).toHaveLength(5)
    expect((await deletion(w.member.cookie, { filter: { q: 'cave' } })).status).toBe(403)
    const other = await organizationWithAdmin(t, 'Other')
    const foreign = await makeKeychain(t, other.organization.id, 'Foreign')
    expect((await deletion(w.admin.cookie, { ids: [w.keychains[0]!.id, foreign.id] })).status).toBe(404)
    const done = await deletion(w.admin.cookie, { filter: { q: 'a' } })
    // Garage and Cave A/B (Cave C has a transfer but does not match "a"? it does: refused again).
    expect(done.status).toBe(409)
    const garage = await deletion(w.admin.cookie, { filter: { q: 'garage' } })
    expect(await garage.json()).toEqual({ count: 1, unchanged: 0 })
  })
})

describe('GET /api/keychain-export with a selection', () => {
  const exported = async (cookie: string, query: string) => {
    const response = await t.get(`/api/keychain-export?${query}`, { cookie })
    expect(response.status).toBe(200)
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await response.arrayBuffer())
    return text
      .split('\r\n')
      .slice(1)
      .filter((line) => line !== '')
      .map((line) => line.split(',')[0])
  }

  it('exports the ids given, or all matching the filter, and only the organization’s', async () => {
    const w = await world()
    const [a, , c] = w.keychains
    expect(await exported(w.member.cookie, `ids=${a!.id},${c!.id}`)).toEqual(['Cave A', 'Cave C'])
    expect(await exported(w.member.cookie, 'q=cave')).toEqual(['Cave A', 'Cave B', 'Cave C'])
    await t.db.update(keychains).set({ custodianId: w.member.id }).where(eq(keychains.id, a!.id))
    expect(await exported(w.member.cookie, `custodianId=${w.member.id}`)).toEqual(['Cave A'])
    const other = await organizationWithAdmin(t, 'Other')
    const foreign = await makeKeychain(t, other.organization.id, 'Foreign')
    expect(await exported(w.member.cookie, `ids=${foreign.id}`)).toEqual([])
    const bad = await t.get('/api/keychain-export?ids=nope', { cookie: w.member.cookie })
    expect(bad.status).toBe(400)
  })
})
