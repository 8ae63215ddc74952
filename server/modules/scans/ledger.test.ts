// A resolved scan is an entry of its tag's organization's log (`scan.recorded`), marked pending by the scan's
// statement and appended by the scan ledger's job, which the test app runs before the request answers: once per
// Idempotency-Key, chained like any entry, and skipped by the field mirror's change feed (`ledger-batches.test.ts`).
import { randomUUID } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import type { SyncPage } from '../../../contract/sync.ts'
import {
  makeKeychain,
  makeTags,
  organizationWithAdmin,
  signedInMember,
} from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { organizationEvents } from '../../db/schema.ts'
import { verifyChain } from '../activity/chain.ts'

const t = setupTestApp()

async function world() {
  const { organization, admin } = await organizationWithAdmin(t, 'Agence')
  const member = await signedInMember(t, organization.id, 'MEMBER')
  const [tagged, loose] = await makeTags(t, organization.id, 2, 'LED')
  const keychain = await makeKeychain(t, organization.id, 'Cave', member.id)
  await t.post(`/api/keychains/${keychain.id}/keys`, {
    cookie: admin.cookie,
    json: { type: 'TAG', name: 'Porte', tagId: tagged!.id },
  })
  return { organization, admin, member, tagged: tagged!, loose: loose!, keychain }
}

const scan = (cookie: string, value: string, key = randomUUID(), headers: Record<string, string> = {}) =>
  t.post('/api/scans', { cookie, json: { value }, headers: { 'idempotency-key': key, ...headers } })

const scansLogged = (organizationId: string) =>
  t.db
    .select()
    .from(organizationEvents)
    .where(
      and(
        eq(organizationEvents.organizationId, organizationId),
        eq(organizationEvents.kind, 'scan.recorded'),
      ),
    )
    .orderBy(organizationEvents.seq)

describe('a scan in the activity log', () => {
  it('is one entry per resolved scan, with who, the device and server times, the queue, tag and keychain', async () => {
    const { organization, member, tagged, loose, keychain } = await world()
    const key = randomUUID()
    const headers = { 'x-client-time': '2030-01-15T08:00:00.000Z', 'x-from-queue': '1' }
    const first = await (await scan(member.cookie, tagged.code, key, headers)).json()
    const replay = await scan(member.cookie, tagged.code, key, headers)
    expect(replay.headers.get('idempotent-replayed')).toBe('true')
    await scan(member.cookie, loose.publicId)

    const entries = await scansLogged(organization.id)
    expect(entries).toHaveLength(2)
    expect(entries[0]).toMatchObject({
      actorId: member.id,
      clientTime: new Date('2030-01-15T08:00:00.000Z'),
      serverTime: t.clock.now(),
      fromQueue: true,
      keychainIds: [keychain.id],
      tagIds: [tagged.id],
      transferIds: [],
      payload: { scanId: first.scanId },
    })
    expect(entries[1]).toMatchObject({
      fromQueue: false,
      clientTime: null,
      keychainIds: [],
      tagIds: [loose.id],
    })
    expect(await verifyChain(t.db, organization.id)).toMatchObject({ valid: true })

    const log = await (
      await t.get('/api/activity?kind=scan.recorded', { cookie: (await world()).admin.cookie })
    ).json()
    expect(log.data).toEqual([]) // another organization's admin sees none of them
  })

  it("is not written for an unknown value nor another organization's tag, in either organization", async () => {
    const { organization, member } = await world()
    const other = await organizationWithAdmin(t, 'Other')
    const [theirs] = await makeTags(t, other.organization.id, 1, 'OTL')
    expect((await (await scan(member.cookie, 'nothing-here')).json()).status).toBe('unknown')
    expect((await (await scan(member.cookie, theirs!.publicId)).json()).status).toBe('foreign')
    expect(await scansLogged(organization.id)).toEqual([])
    expect(await scansLogged(other.organization.id)).toEqual([])
  })

  it('moves the change feed on without sending anything again', async () => {
    const { admin, member, tagged } = await world()
    let cursor: string | undefined
    for (let guard = 0; guard < 20; guard += 1) {
      const query = cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''
      const page = (await (
        await t.get(`/api/sync/changes${query}`, { cookie: admin.cookie })
      ).json()) as SyncPage
      cursor = page.cursor
      if (!page.more) break
    }
    await scan(member.cookie, tagged.code)
    const after = (await (
      await t.get(`/api/sync/changes?cursor=${encodeURIComponent(cursor!)}`, { cookie: admin.cookie })
    ).json()) as SyncPage
    expect(after).toMatchObject({ phase: 'changes', keychains: [], tags: [], transfers: [], more: false })
    expect(after.cursor).not.toBe(cursor)
  })
})

describe('scan entries in the change feed', () => {
  const changes = async (cookie: string, cursor: string, limit?: number) => {
    const query = new URLSearchParams({ cursor, ...(limit ? { limit: String(limit) } : {}) })
    return (await (await t.get(`/api/sync/changes?${query}`, { cookie })).json()) as SyncPage
  }
  const upToDate = async (cookie: string) => {
    let cursor: string | undefined
    for (let guard = 0; guard < 20; guard += 1) {
      const query = cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''
      const page = (await (await t.get(`/api/sync/changes${query}`, { cookie })).json()) as SyncPage
      cursor = page.cursor
      if (!page.more) return cursor
    }
    throw new Error('the feed never ended')
  }

  it('sends the rows of the other entries of the same page, and none of the scanned keychain', async () => {
    const { organization, admin, member, tagged, loose } = await world()
    const other = await makeKeychain(t, organization.id, 'Grenier', member.id)
    const cursor = await upToDate(admin.cookie)
    await scan(member.cookie, tagged.code)
    expect(
      (await t.patch(`/api/keychains/${other.id}`, { cookie: admin.cookie, json: { name: 'Grenier bas' } }))
        .status,
    ).toBe(200)
    await scan(member.cookie, loose.code)
    const page = await changes(admin.cookie, cursor)
    expect(page.keychains.map((keychain) => [keychain.id, keychain.name])).toEqual([
      [other.id, 'Grenier bas'],
    ])
    expect(page.tags).toEqual([])
    expect(page.deleted).toEqual({ keychains: [] })
    expect(page.more).toBe(false)
  })

  it('counts towards a page: a full page of scans says there is more, and the next one goes on after them', async () => {
    const { admin, member, tagged } = await world()
    const cursor = await upToDate(admin.cookie)
    for (let n = 0; n < 3; n += 1) await scan(member.cookie, tagged.code)
    const first = await changes(admin.cookie, cursor, 2)
    expect(first).toMatchObject({ keychains: [], tags: [], transfers: [], more: true })
    const second = await changes(admin.cookie, first.cursor, 2)
    expect(second).toMatchObject({ keychains: [], tags: [], transfers: [], more: false })
    const third = await changes(admin.cookie, second.cursor, 2)
    expect(third).toMatchObject({ more: false, cursor: expect.any(String) })
  })
})
