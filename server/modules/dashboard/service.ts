import { and, count, eq, lte, ne, type SQL, sql } from 'drizzle-orm'
import type { DashboardView } from '../../../contract/dashboard.ts'
import type { Role } from '../../../contract/permissions.ts'
import { DASHBOARD_RETURNS_SHOWN, type DashboardReturn } from '../../../contract/transfers.ts'
import type { Db } from '../../db/client.ts'
import { keychains, memberships, organizationCounters, transfers, users } from '../../db/schema.ts'
import { toPerson } from '../../shared/person.ts'
import { expiredWhere, openWhere, statusWhere } from '../../shared/transfer-conditions.ts'
import { allowanceOf, heldKeychains, setupColumns, setupOf } from './setup.ts'

const filtered = (where: SQL) => sql<number>`count(*) filter (where ${where})`.mapWith(Number)

/**
 * The organization's figures in two statements whatever its size: the keychain count kept by triggers
 * (`organization_counters`), the members, and every transfer count in one pass with `filter` clauses — the same
 * SQL conditions as `GET /transfers?status=…&expired=…`, so the dashboard and the filtered lists agree; then the
 * keychains due back (`returnsOf`).
 */
async function organizationFigures(db: Db, organizationId: string, userId: string, now: Date) {
  const notExpired = expiredWhere(false, now)
  const expired = expiredWhere(true, now)
  const [figures] = await db
    .select({
      // The keychain count kept by triggers, and every membership (as `GET /users`, which the figure links to).
      keychains: sql<number>`coalesce((select ${organizationCounters.keychains} from ${organizationCounters}
        where ${organizationCounters.organizationId} = ${organizationId}), 0)`.mapWith(Number),
      members: sql<number>`(select count(*) from ${memberships}
        where ${memberships.organizationId} = ${organizationId})`.mapWith(Number),
      total: count(),
      scheduled: filtered(and(statusWhere('SCHEDULED', now), notExpired)!),
      transferred: filtered(statusWhere('TRANSFERRED', now)),
      returning: filtered(and(statusWhere('RETURNING', now), notExpired)!),
      expiredScheduled: filtered(and(statusWhere('SCHEDULED', now), expired)!),
      expiredReturning: filtered(and(statusWhere('RETURNING', now), expired)!),
      // The caller's open requests, the setup checklist and the plan ride along: one statement for all.
      openRequests: sql<number>`(${openRequests(db, userId, now)})`.mapWith(Number),
      ...setupColumns(organizationId, now),
    })
    .from(transfers)
    .where(eq(transfers.organizationId, organizationId))
  const setup = setupOf(figures!)
  return {
    openRequests: figures?.openRequests ?? 0,
    id: organizationId,
    returns: await returnsOf(db, organizationId, now),
    keychains: figures?.keychains ?? 0,
    transfers: figures?.total ?? 0,
    users: figures?.members ?? 0,
    active: {
      scheduled: figures?.scheduled ?? 0,
      transferred: figures?.transferred ?? 0,
      returning: figures?.returning ?? 0,
    },
    expired: { scheduled: figures?.expiredScheduled ?? 0, returning: figures?.expiredReturning ?? 0 },
    setup: {
      ...setup.steps,
      keychain: (figures?.keychains ?? 0) > 0,
      member: (figures?.members ?? 0) > 1,
    },
    allowance: await allowanceOf(db, organizationId, setup.plan, now),
    mine: await heldKeychains(db, organizationId, userId),
  }
}

/**
 * The keychains out whose to-date has come (RETURNING): due back today, or late (expired), oldest to-date first,
 * in one statement; each list stops at `DASHBOARD_RETURNS_SHOWN` (a window function numbers each kind's rows).
 */
async function returnsOf(db: Db, organizationId: string, now: Date) {
  const late = expiredWhere(true, now)
  const ranked = db
    .select({
      transferId: sql<string>`${transfers.id}`.as('transfer_id'),
      keychainId: sql<string>`${transfers.keychainId}`.as('keychain_id'),
      keychainName: sql<string>`coalesce(${keychains.name}, ${transfers.keychainName})`.as('keychain_name'),
      toDate: sql<string>`${transfers.toDate}::text`.as('to_date'),
      chasedAt: sql<Date | null>`${transfers.chasedAt}`.as('chased_at'),
      late: sql<boolean>`${late}`.as('late'),
      rank: sql<number>`row_number() over (partition by ${late} order by ${transfers.toDate}, ${transfers.id})`.as(
        'rank',
      ),
      holderId: sql<string>`${users.id}`.as('holder_id'),
      holderEmail: sql<string>`${users.email}`.as('holder_email'),
      holderFirstName: sql<string>`${users.firstName}`.as('holder_first_name'),
      holderLastName: sql<string>`${users.lastName}`.as('holder_last_name'),
    })
    .from(transfers)
    .innerJoin(users, eq(users.id, transfers.recipientId))
    .leftJoin(keychains, eq(keychains.id, transfers.keychainId))
    .where(and(eq(transfers.organizationId, organizationId), statusWhere('RETURNING', now)))
    .as('ranked')
  const rows = await db
    .select()
    .from(ranked)
    .where(lte(ranked.rank, DASHBOARD_RETURNS_SHOWN))
    .orderBy(ranked.toDate, ranked.transferId)
  const item = (row: (typeof rows)[number]): DashboardReturn => ({
    transferId: row.transferId,
    keychainId: row.keychainId,
    keychainName: row.keychainName,
    holder: toPerson({
      id: row.holderId,
      email: row.holderEmail,
      firstName: row.holderFirstName,
      lastName: row.holderLastName,
    }),
    toDate: String(row.toDate),
    chasedAt: row.chasedAt === null ? null : new Date(row.chasedAt).toISOString(),
  })
  return {
    dueToday: rows.filter((row) => !row.late).map(item),
    overdue: rows.filter((row) => row.late).map(item),
  }
}

/** As `GET /transfers/requests?open=true`: open transfers addressed to the caller where they are a member (not DISABLED). */
function openRequests(db: Db, userId: string, now: Date) {
  return db
    .select({ total: count() })
    .from(transfers)
    .innerJoin(
      memberships,
      and(
        eq(memberships.userId, transfers.recipientId),
        eq(memberships.organizationId, transfers.organizationId),
      ),
    )
    .where(and(eq(transfers.recipientId, userId), ne(memberships.status, 'DISABLED'), openWhere(now)))
}

/**
 * `GET /stats/dashboard`. The organization part (the selected one, unless the caller is a CONTACT there, or
 * not a member: `role` from the session), with the caller's open requests (as `GET /transfers/requests?open=true`
 * counts them) in its first statement; without it, those alone.
 */
export async function dashboard(
  db: Db,
  input: { userId: string; selectedOrganizationId: string | null; role: Role | null; now: Date },
): Promise<DashboardView> {
  const { now, role, userId } = input
  const organizationId = input.selectedOrganizationId
  if (organizationId && role && role !== 'CONTACT') {
    const { openRequests: open, ...organization } = await organizationFigures(db, organizationId, userId, now)
    return { organization, requests: { open } }
  }
  const [open] = await openRequests(db, userId, now)
  return { organization: null, requests: { open: open?.total ?? 0 } }
}
