import { and, eq, inArray, lte, sql } from 'drizzle-orm'
import { RETURN_GRACE_MS } from '../../../contract/transfers.ts'
import type { Db } from '../../db/client.ts'
import { memberships, transferExtensions, transfers } from '../../db/schema.ts'

/**
 * How many things wait for a person, for the app icon's badge: the keychains they hold past their return (a day
 * after the to-date, as the transfer list's "overdue"), and the extension requests to answer in the organizations
 * they manage. Two counts, each on an index.
 */
export async function badgeCount(db: Db, userId: string, now: Date): Promise<number> {
  const managed = db
    .select({ id: memberships.organizationId })
    .from(memberships)
    .where(
      and(
        eq(memberships.userId, userId),
        eq(memberships.status, 'ACTIVE'),
        inArray(memberships.role, ['ADMIN', 'MANAGER']),
      ),
    )
  const [overdue, requests] = await Promise.all([
    db.$count(
      transfers,
      and(
        eq(transfers.recipientId, userId),
        eq(transfers.status, 'TRANSFERRED'),
        lte(transfers.endsAt, new Date(now.getTime() - RETURN_GRACE_MS)),
      ),
    ),
    db
      .select({ count: sql<number>`count(*)::int` })
      .from(transferExtensions)
      .innerJoin(transfers, eq(transfers.id, transferExtensions.transferId))
      .where(and(eq(transferExtensions.status, 'PENDING'), inArray(transfers.organizationId, managed))),
  ])
  // Stryker disable next-line OptionalChaining: an aggregate without GROUP BY always gives one row
  return overdue + (requests[0]?.count ?? 0)
}
