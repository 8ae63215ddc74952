import { and, count, eq, ne, type SQL, sql } from 'drizzle-orm'
import type { Role } from '../../../contract/permissions.ts'
import type { Dashboard } from '../../../contract/transfers.ts'
import type { Db } from '../../db/client.ts'
import { memberships, organizationCounters, transfers } from '../../db/schema.ts'
import { expiredWhere, openWhere, statusWhere } from '../transfers/conditions.ts'

const filtered = (where: SQL) => sql<number>`count(*) filter (where ${where})`.mapWith(Number)

/**
 * The organization's figures in three statements whatever its size: the keychain count kept by triggers
 * (`organization_counters`), the members, and every transfer count in one pass with `filter` clauses — the same
 * SQL conditions as `GET /transfers?status=…&expired=…`, so the dashboard and the filtered lists agree.
 */
async function organizationFigures(db: Db, organizationId: string, now: Date) {
  const [counters] = await db
    .select({ keychains: organizationCounters.keychains })
    .from(organizationCounters)
    .where(eq(organizationCounters.organizationId, organizationId))
  const [members] = await db
    .select({ total: count() })
    .from(memberships)
    // Every membership, as the users list (`GET /users`) the figure links to shows them.
    .where(eq(memberships.organizationId, organizationId))
  const notExpired = expiredWhere(false, now)
  const expired = expiredWhere(true, now)
  const [figures] = await db
    .select({
      total: count(),
      scheduled: filtered(and(statusWhere('SCHEDULED', now), notExpired)!),
      transferred: filtered(statusWhere('TRANSFERRED', now)),
      returning: filtered(and(statusWhere('RETURNING', now), notExpired)!),
      expiredScheduled: filtered(and(statusWhere('SCHEDULED', now), expired)!),
      expiredReturning: filtered(and(statusWhere('RETURNING', now), expired)!),
    })
    .from(transfers)
    .where(eq(transfers.organizationId, organizationId))
  return {
    id: organizationId,
    keychains: counters?.keychains ?? 0,
    transfers: figures?.total ?? 0,
    users: members?.total ?? 0,
    active: {
      scheduled: figures?.scheduled ?? 0,
      transferred: figures?.transferred ?? 0,
      returning: figures?.returning ?? 0,
    },
    expired: { scheduled: figures?.expiredScheduled ?? 0, returning: figures?.expiredReturning ?? 0 },
  }
}

/**
 * `GET /stats/dashboard`. The organization part (the selected one, unless the caller is a CONTACT there, or
 * not a member: `role` from the session); `requests.open` counts what `GET /transfers/requests?open=true` lists.
 */
export async function dashboard(
  db: Db,
  input: { userId: string; selectedOrganizationId: string | null; role: Role | null; now: Date },
): Promise<Dashboard> {
  const { now, role } = input
  const organizationId = input.selectedOrganizationId
  const organization =
    organizationId && role && role !== 'CONTACT' ? await organizationFigures(db, organizationId, now) : null
  // As `GET /transfers/requests?open=true`: addressed to the caller where they are a member (not DISABLED).
  const [open] = await db
    .select({ total: count() })
    .from(transfers)
    .innerJoin(
      memberships,
      and(
        eq(memberships.userId, transfers.recipientId),
        eq(memberships.organizationId, transfers.organizationId),
      ),
    )
    .where(and(eq(transfers.recipientId, input.userId), ne(memberships.status, 'DISABLED'), openWhere(now)))
  return { organization, requests: { open: open?.total ?? 0 } }
}
