import { randomUUID } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { makeKeychain, organizationWithAdmin, signedInMember } from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { makeTransfer, parisDay, subscribe } from '../../../tests/server/transfers.ts'
import { jobs, organizationEvents, transfers } from '../../db/schema.ts'

const t = setupTestApp()

async function world(allowance = 10) {
  const { organization, admin } = await organizationWithAdmin(t, 'Agence')
  await subscribe(t, organization.id, allowance)
  const manager = await signedInMember(t, organization.id, 'MANAGER')
  const member = await signedInMember(t, organization.id, 'MEMBER')
  const contact = await signedInMember(t, organization.id, 'CONTACT')
  const made = []
  for (const name of ['Cave A', 'Cave B', 'Cave C', 'Garage']) {
    made.push(await makeKeychain(t, organization.id, name, member.id))
  }
  return { organization, admin, manager, member, contact, keychains: made }
}

const authorize = (cookie: string, json: unknown, key: string = randomUUID()) =>
  t.post('/api/keychain-bulk/transfers', { cookie, json, headers: { 'idempotency-key': key } })
const body = (selection: object, userId: string) => ({
  ...selection,
  recipient: { kind: 'member', userId },
  fromDate: parisDay(t, 1),
  toDate: parisDay(t, 3),
})
const transfersOf = (organizationId: string) =>
  t.db.select().from(transfers).where(eq(transfers.organizationId, organizationId))
const authorizedEvents = (organizationId: string) =>
  t.db
    .select()
    .from(organizationEvents)
    .where(
      and(
        eq(organizationEvents.organizationId, organizationId),
        eq(organizationEvents.kind, 'transfer.authorized'),
      ),
    )

describe('POST /api/keychain-bulk/transfers', () => {
  it('by ids: one SCHEDULED transfer, one mail and one event per keychain', async () => {
    const w = await world()
    const chosen = w.keychains.slice(0, 3).map((k) => k.id)
    const response = await authorize(w.manager.cookie, body({ ids: chosen }, w.contact.id))
    expect(response.status).toBe(201)
    const result = await response.json()
    expect(result).toMatchObject({ count: 3, unchanged: 0 })
    expect(result.transferIds).toHaveLength(3)
    const rows = await transfersOf(w.organization.id)
    expect(rows.map((row) => row.keychainId).sort()).toEqual([...chosen].sort())
    for (const row of rows) expect(row).toMatchObject({ status: 'SCHEDULED', recipientId: w.contact.id })
    const events = await authorizedEvents(w.organization.id)
    expect(events).toHaveLength(3)
    expect(events[0]?.payload).toMatchObject({ recipientId: w.contact.id })
    expect(events.map((e) => e.transferIds[0]).sort()).toEqual([...result.transferIds].sort())
    const mails = (await t.db.select().from(jobs)).filter((job) => job.kind === 'mail')
    expect(mails.length).toBeGreaterThanOrEqual(3)
  })

  it('by filter, and all or nothing on the plan: fewer left than selected is a 402 saying how many', async () => {
    const w = await world(3)
    const over = await authorize(w.admin.cookie, body({ filter: {} }, w.contact.id))
    expect(over.status).toBe(402)
    const { error } = await over.json()
    expect(error.code).toBe('transfer_allowance_exceeded')
    expect(error).toMatchObject({ used: 0, allowance: 3 })
    expect(error.message).toContain('3')
    expect(await transfersOf(w.organization.id)).toHaveLength(0)
    const fits = await authorize(w.admin.cookie, body({ filter: { q: 'cave' } }, w.contact.id))
    expect(fits.status).toBe(201)
    expect((await fits.json()).count).toBe(3)
  })

  it('all or nothing on an overlap (409) or a keychain the recipient holds (409); replay; 404; roles', async () => {
    const w = await world()
    await makeTransfer(t, {
      organizationId: w.organization.id,
      keychainId: w.keychains[1]!.id,
      recipientId: w.contact.id,
      fromDate: parisDay(t, 2),
      toDate: parisDay(t, 4),
    })
    const ids = w.keychains.map((k) => k.id)
    expect((await authorize(w.admin.cookie, body({ ids }, w.contact.id))).status).toBe(409)
    expect((await authorize(w.admin.cookie, body({ ids: [ids[0]] }, w.member.id))).status).toBe(409)
    expect(await transfersOf(w.organization.id)).toHaveLength(1)
    const key = randomUUID()
    const once = body({ ids: [ids[0], ids[2]] }, w.contact.id)
    const first = await authorize(w.admin.cookie, once, key)
    const again = await authorize(w.admin.cookie, once, key)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(await again.json()).toEqual(await first.json())
    expect(await transfersOf(w.organization.id)).toHaveLength(3)
    const other = await organizationWithAdmin(t, 'Other')
    const foreign = await makeKeychain(t, other.organization.id, 'Foreign')
    expect((await authorize(w.admin.cookie, body({ ids: [ids[3], foreign.id] }, w.contact.id))).status).toBe(
      404,
    )
    expect((await authorize(w.member.cookie, body({ ids: [ids[3]] }, w.contact.id))).status).toBe(403)
    const bad = await authorize(w.admin.cookie, {
      ...body({ ids: [ids[3]] }, w.contact.id),
      toDate: parisDay(t),
    })
    expect(bad.status).toBe(400)
    expect(await transfersOf(w.organization.id)).toHaveLength(3)
  })
})
