import { and, count, eq, ne, type SQL } from 'drizzle-orm'
import type { Dashboard } from '../../../contract/transfers.ts'
import type { Db } from '../../db/client.ts'
import { keychains, memberships, transfers } from '../../db/schema.ts'
import { memberRole } from '../organizations/roles.ts'
import { expiredWhere, openWhere, statusWhere } from '../transfers/conditions.ts'

async function countTransfers(db: Db, organizationId: string, where?: SQL): Promise<number> {
  const [row] = await db
    .select({ total: count() })
    .from(transfers)
    .where(and(eq(transfers.organizationId, organizationId), where))
  return row?.total ?? 0
}

/**
 * `GET /stats/dashboard`. The organization part (the selected one, unless the caller is a CONTACT there) counts
 * with the same SQL conditions as `GET /transfers?status=…&expired=…`, so the dashboard and the filtered lists
 * agree; `requests.open` counts what `GET /transfers/requests?open=true` lists.
 */
export async function dashboard(
  db: Db,
  input: { userId: string; selectedOrganizationId: string | null; now: Date },
): Promise<Dashboard> {
  const { now } = input
  const organizationId = input.selectedOrganizationId
  const role = organizationId ? await memberRole(db, input.userId, organizationId) : null
  let organization: Dashboard['organization'] = null
  if (organizationId && role && role !== 'CONTACT') {
    const transfersWhere = (where?: SQL) => countTransfers(db, organizationId, where)
    const [keychainCount] = await db
      .select({ total: count() })
      .from(keychains)
      .where(eq(keychains.organizationId, organizationId))
    const [userCount] = await db
      .select({ total: count() })
      .from(memberships)
      // Every membership, as the users list (`GET /users`) the figure links to shows them.
      .where(eq(memberships.organizationId, organizationId))
    const notExpired = expiredWhere(false, now)
    const expired = expiredWhere(true, now)
    organization = {
      id: organizationId,
      keychains: keychainCount?.total ?? 0,
      transfers: await transfersWhere(),
      users: userCount?.total ?? 0,
      active: {
        scheduled: await transfersWhere(and(statusWhere('SCHEDULED', now), notExpired)),
        transferred: await transfersWhere(statusWhere('TRANSFERRED', now)),
        returning: await transfersWhere(and(statusWhere('RETURNING', now), notExpired)),
      },
      expired: {
        scheduled: await transfersWhere(and(statusWhere('SCHEDULED', now), expired)),
        returning: await transfersWhere(and(statusWhere('RETURNING', now), expired)),
      },
    }
  }
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
