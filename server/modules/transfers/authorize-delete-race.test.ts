import { eq, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { againstAHeldRow } from '../../../tests/server/locks.ts'
import { authorize, dates, toMember, transferWorld } from '../../../tests/server/transfers.ts'
import { keychains, transfers } from '../../db/schema.ts'

const t = setupTestApp()

/**
 * An authorization while the keychain is being deleted, interleaved on purpose (PostgreSQL only: PGlite runs
 * one transaction at a time). The deletion holds the keychain's row; the authorization locks that row before it
 * reads anything else, so it waits, then finds no keychain and answers 404. Without that lock it would read the
 * keychain, write its transfer, and fail on the deleted row's foreign key with a 500.
 */
describe.runIf(process.env.TEST_DATABASE_URL)('an authorization racing the deletion of its keychain', () => {
  it('waits for the deletion and answers that the keychain is gone', async () => {
    const { admin, contact, keychain } = await transferWorld(t)
    const response = await againstAHeldRow(
      t,
      {
        lock: (tx) => tx.execute(sql`select id from keychains where id = ${keychain.id} for update`),
        write: (tx) => tx.delete(keychains).where(eq(keychains.id, keychain.id)),
      },
      () => authorize(t, admin.cookie, keychain.id, dates(toMember(contact.id))),
    )
    expect(response.status).toBe(404)
    expect(await t.db.select().from(transfers).where(eq(transfers.keychainId, keychain.id))).toEqual([])
  })
})
