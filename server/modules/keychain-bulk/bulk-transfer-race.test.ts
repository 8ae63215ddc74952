import { randomUUID } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { makeKeychain, organizationWithAdmin, signedInMember } from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { againstAHeldRow } from '../../../tests/server/locks.ts'
import { parisDay, subscribe } from '../../../tests/server/transfers.ts'
import { type KeychainRow, transfers } from '../../db/schema.ts'
import { startOfDayIn } from '../../shared/time-zones.ts'

const t = setupTestApp()

/**
 * A bulk authorization while another authorization spends the month's allowance (PostgreSQL only: PGlite runs
 * one transaction at a time). The other holds the subscription's row, as an authorization does, then writes two
 * transfers and commits; the bulk authorization locks that row before it counts what is used, so it waits, then
 * counts them and refuses (402). Without that lock it would count none and go over the plan.
 */
describe.runIf(process.env.TEST_DATABASE_URL)('a bulk authorization racing another for the allowance', () => {
  it('waits for the other and counts its transfers', async () => {
    const { organization, admin } = await organizationWithAdmin(t, 'Course')
    await subscribe(t, organization.id, 3)
    const contact = await signedInMember(t, organization.id, 'CONTACT')
    const made: KeychainRow[] = []
    for (const name of ['A', 'B', 'C', 'D']) made.push(await makeKeychain(t, organization.id, name))
    const [fromDate, toDate] = [parisDay(t, 1), parisDay(t, 2)]
    const response = await againstAHeldRow(
      t,
      {
        lock: (tx) =>
          tx.execute(
            sql`select organization_id from subscriptions where organization_id = ${organization.id} for update`,
          ),
        write: (tx) =>
          tx.insert(transfers).values(
            made.slice(0, 2).map((keychain) => ({
              organizationId: organization.id,
              keychainId: keychain.id,
              keychainName: keychain.name,
              recipientId: contact.id,
              authorizedById: admin.profile.id,
              fromDate,
              toDate,
              startsAt: startOfDayIn('Europe/Paris', fromDate),
              endsAt: startOfDayIn('Europe/Paris', toDate),
              status: 'SCHEDULED' as const,
              createdAt: t.clock.now(),
            })),
          ),
      },
      () =>
        t.post('/api/keychain-bulk/transfers', {
          cookie: admin.cookie,
          json: {
            ids: [made[2]!.id, made[3]!.id],
            recipient: { kind: 'member', userId: contact.id },
            fromDate,
            toDate,
          },
          headers: { 'idempotency-key': randomUUID() },
        }),
    )
    expect(response.status).toBe(402)
    expect((await response.json()).error).toMatchObject({
      code: 'transfer_allowance_exceeded',
      used: 2,
      allowance: 3,
    })
    expect(
      await t.db.select().from(transfers).where(eq(transfers.organizationId, organization.id)),
    ).toHaveLength(2)
  })
})
