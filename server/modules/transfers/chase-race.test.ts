import { eq, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { againstAHeldRow } from '../../../tests/server/locks.ts'
import { makeTransfer, transferWorld } from '../../../tests/server/transfers.ts'
import { transfers } from '../../db/schema.ts'

const t = setupTestApp()

/**
 * A chase while the keychain comes back, interleaved on purpose (PostgreSQL only: PGlite runs one transaction at
 * a time). The chase reads the transfer out and late, then its conditional UPDATE waits for the return's row
 * lock; once the return commits, the UPDATE finds the transfer no longer out and writes nothing. The chase reads
 * the transfer again and answers 409 `not_overdue` (not 429 `chased_recently`: nobody chased it), and mails no one.
 */
describe.runIf(process.env.TEST_DATABASE_URL)('a chase racing the return of its keychain', () => {
  it('waits for the return and answers that the keychain is not late', async () => {
    const { organization, admin, contact, keychain } = await transferWorld(t)
    // Out since the 10th, due back on the 12th: late since 00:00 on the 13th (the test clock reads the 15th).
    const transfer = await makeTransfer(t, {
      organizationId: organization.id,
      keychainId: keychain.id,
      recipientId: contact.id,
      fromDate: '2030-01-10',
      toDate: '2030-01-12',
      status: 'TRANSFERRED',
    })
    const response = await againstAHeldRow(
      t,
      {
        lock: (tx) => tx.execute(sql`select id from transfers where id = ${transfer.id} for update`),
        write: (tx) =>
          tx
            .update(transfers)
            .set({ status: 'RETURNED', returnedAt: t.clock.now() })
            .where(eq(transfers.id, transfer.id)),
      },
      () => t.post(`/api/transfers/${transfer.id}/chase`, { cookie: admin.cookie }),
    )
    expect(response.status).toBe(409)
    expect((await response.json()).error.code).toBe('not_overdue')
    const [row] = await t.db.select().from(transfers).where(eq(transfers.id, transfer.id))
    expect(row).toMatchObject({ status: 'RETURNED', chasedAt: null })
    expect(t.mail.to(contact.email)).toEqual([])
  })
})
