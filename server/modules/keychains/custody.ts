import { desc, eq } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { CustodyEntry } from '../../../contract/keychains.ts'
import type { Db } from '../../db/client.ts'
import { custodyLog, users } from '../../db/schema.ts'
import { toPerson } from '../../shared/person.ts'

/** Appends one custodian change; the log is never updated or deleted on its own (only with its keychain). */
export async function appendCustody(
  db: Db,
  entry: {
    keychainId: string
    byUserId: string
    fromUserId: string | null
    toUserId: string | null
    reason: string
    at: Date
  },
): Promise<void> {
  await db.insert(custodyLog).values(entry)
}

const by = alias(users, 'by_user')
const from = alias(users, 'from_user')
const to = alias(users, 'to_user')

/** Newest first. */
export async function custodyLogOf(db: Db, keychainId: string): Promise<CustodyEntry[]> {
  const rows = await db
    .select({ entry: custodyLog, by, from, to })
    .from(custodyLog)
    .leftJoin(by, eq(by.id, custodyLog.byUserId))
    .leftJoin(from, eq(from.id, custodyLog.fromUserId))
    .leftJoin(to, eq(to.id, custodyLog.toUserId))
    .where(eq(custodyLog.keychainId, keychainId))
    .orderBy(desc(custodyLog.seq))
  return rows.map((row) => ({
    id: row.entry.id,
    at: row.entry.at.toISOString(),
    by: row.by ? toPerson(row.by) : null,
    from: row.from ? toPerson(row.from) : null,
    to: row.to ? toPerson(row.to) : null,
    reason: row.entry.reason,
  }))
}
