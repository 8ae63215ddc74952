import { randomUUID } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { and, eq, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { makeKeychain } from '../../../tests/server/fixtures.ts'
import { setupTestAppAtEpoch } from '../../../tests/server/harness.ts'
import { authorize, dates, toMember, transferWorld } from '../../../tests/server/transfers.ts'
import { organizationEvents } from '../../db/schema.ts'
import { fromRoot } from '../../paths.ts'
import { verifyChain } from './chain.ts'

const t = setupTestAppAtEpoch({ clearMail: true })

/** An organization with a few events: its keychains, tags and two transfers (one cancelled). */
async function loggedOrganization() {
  const world = await transferWorld(t)
  const { admin, contact, keychain, organization } = world
  await makeKeychain(t, organization.id, 'Loge')
  const lent = await (await authorize(t, admin.cookie, keychain.id, dates(toMember(contact.id)))).json()
  await t.delete(`/api/transfers/${lent.id}`, { cookie: admin.cookie })
  await authorize(t, admin.cookie, keychain.id, dates(toMember(contact.id), '2030-01-20', '2030-01-22'))
  const events = await t.db
    .select()
    .from(organizationEvents)
    .where(eq(organizationEvents.organizationId, organization.id))
  expect(events.length).toBeGreaterThanOrEqual(4)
  return { ...world, count: events.length }
}

const verify = async (cookie: string) => (await t.get('/api/activity/verification', { cookie })).json()
const row = (organizationId: string, seq: number) =>
  and(eq(organizationEvents.organizationId, organizationId), eq(organizationEvents.seq, seq))

describe('the event log’s hash chain', () => {
  it('holds for an untouched log, each hash differing from the last', async () => {
    const { admin, organization, count } = await loggedOrganization()
    expect(await verify(admin.cookie)).toEqual({ entries: count, valid: true, brokenAt: null })
    const hashes = (
      await t.db
        .select()
        .from(organizationEvents)
        .where(eq(organizationEvents.organizationId, organization.id))
    ).map((event) => event.hash)
    expect(new Set(hashes).size).toBe(count)
    expect(hashes.every((hash) => /^[0-9a-f]{64}$/.test(hash))).toBe(true)
  })

  it('holds for a log not begun (no entry, no counter)', async () => {
    expect(await verifyChain(t.db, randomUUID())).toEqual({ entries: 0, valid: true, brokenAt: null })
  })

  it('breaks where an entry was edited', async () => {
    const { admin, organization } = await loggedOrganization()
    await t.db
      .update(organizationEvents)
      .set({ payload: { forged: true } })
      .where(row(organization.id, 2))
    expect(await verify(admin.cookie)).toMatchObject({ valid: false, brokenAt: 2 })
  })

  it('breaks where an entry was deleted, and where the last ones were cut off', async () => {
    const { admin, organization, count } = await loggedOrganization()
    await t.db.delete(organizationEvents).where(row(organization.id, 3))
    expect(await verify(admin.cookie)).toMatchObject({ valid: false, brokenAt: 4 })

    const other = await loggedOrganization()
    await t.db.delete(organizationEvents).where(row(other.organization.id, other.count))
    expect(await verify(other.admin.cookie)).toEqual({
      entries: other.count - 1,
      valid: false,
      brokenAt: other.count,
    })
    expect(count).toBe(other.count)
  })

  it('breaks at the first entry once every entry was deleted (the counter still says how many there were)', async () => {
    const { admin, organization } = await loggedOrganization()
    await t.db.delete(organizationEvents).where(eq(organizationEvents.organizationId, organization.id))
    expect(await verify(admin.cookie)).toEqual({ entries: 0, valid: false, brokenAt: 1 })
  })

  it("gives the log written before the chain the hashes the server writes (migration 0012's backfill)", async () => {
    const { admin, organization } = await loggedOrganization()
    const read = async () =>
      (
        await t.db
          .select()
          .from(organizationEvents)
          .where(eq(organizationEvents.organizationId, organization.id))
      )
        .sort((a, b) => a.seq - b.seq)
        .map((event) => event.hash)
    const written = await read()
    const migration = await readFile(fromRoot('server/db/migrations/0012_event_chain.sql'), 'utf8')
    const backfill = migration.split('--> statement-breakpoint').find((part) => part.includes('DO $$'))!
    await t.db.execute(sql.raw(backfill))
    expect(await read()).toEqual(written)
    expect((await verify(admin.cookie)).valid).toBe(true)
  })

  it('is for admins and managers only', async () => {
    const { member, contact } = await loggedOrganization()
    expect((await t.get('/api/activity/verification', { cookie: member.cookie })).status).toBe(403)
    expect((await t.get('/api/activity/verification', { cookie: contact.cookie })).status).toBe(403)
  })
})
