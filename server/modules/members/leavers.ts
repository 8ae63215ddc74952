import { and, count, eq, isNull, or, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { keychains, memberships, transfers, users } from '../../db/schema.ts'
import type { NewJob } from '../../jobs/queue.ts'
import { memberLeftMail } from '../../mail/member-left-mail.ts'
import { activeMembersWith } from '../../shared/active-members.ts'
import { findOrganization } from '../../shared/organization.ts'
import { displayName } from '../../shared/person.ts'
import { openWhere } from '../../shared/transfer-conditions.ts'
import { personalNoticeJobs } from '../notices/deliver.ts'

/** What a person still has of the organization: keychains in their custody, transfers to them still open. */
type Holdings = { keychains: number; transfers: number }

async function holdingsOf(db: Db, organizationId: string, userId: string, now: Date): Promise<Holdings> {
  const [held] = await db
    .select({ n: count() })
    .from(keychains)
    .where(
      and(
        eq(keychains.organizationId, organizationId),
        eq(keychains.custodianId, userId),
        isNull(keychains.deletedAt),
      ),
    )
  const [open] = await db
    .select({ n: count() })
    .from(transfers)
    .where(
      and(eq(transfers.organizationId, organizationId), eq(transfers.recipientId, userId), openWhere(now)),
    )
  // A count answers one row, always.
  return { keychains: held!.n, transfers: open!.n }
}

/**
 * The leaver alert: a person just disabled who still holds keychains or has transfers open is told to every
 * ACTIVE admin of the organization (mail and push, each as they chose for `member_left`), once per departure.
 * Nothing when they hold nothing.
 */
export async function leaverAlertJobs(
  db: Db,
  input: { organizationId: string; userId: string; now: Date; publicUrl: string },
): Promise<NewJob[]> {
  const holdings = await holdingsOf(db, input.organizationId, input.userId, input.now)
  if (holdings.keychains === 0 && holdings.transfers === 0) return []
  const [person] = await db.select().from(users).where(eq(users.id, input.userId))
  const organization = await findOrganization(db, input.organizationId)
  // Stryker disable next-line ConditionalExpression,LogicalOperator,ArrayDeclaration: what they hold is the person's and the organization's (foreign keys), so both exist
  if (!person || !organization) return []
  const admins = await activeMembersWith(db, input.organizationId, ['ADMIN'], input.userId)
  const notices = admins.map((admin) => ({
    userId: admin.id,
    kind: 'member_left' as const,
    subject: `member-left:${input.userId}:${input.now.getTime()}`,
    mail: memberLeftMail({
      to: admin.email,
      locale: admin.locale,
      publicUrl: input.publicUrl,
      organizationName: organization.name,
      person: { id: person.id, name: displayName(person) },
      ...holdings,
    }),
  }))
  return personalNoticeJobs(db, notices, {
    now: input.now,
    organizationId: input.organizationId,
    publicUrl: input.publicUrl,
  })
}

/**
 * The organization's leavers: DISABLED members who still hold keychains or have transfers open, most keychains
 * first. They stay listed (dashboard, holdings report) until everything is back or handed to someone else.
 */
export async function listLeavers(db: Db, organizationId: string, now: Date) {
  const held = sql<number>`(select count(*)::int from keychains k where k.organization_id = ${organizationId}
    and k.custodian_id = ${users.id} and k.deleted_at is null)`
  const openCount = sql<number>`(${db
    .select({ n: sql`count(*)::int` })
    .from(transfers)
    .where(
      and(eq(transfers.organizationId, organizationId), eq(transfers.recipientId, users.id), openWhere(now)),
    )})`
  const rows = await db
    .select({ user: users, keychains: held, transfers: openCount })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(
      and(
        eq(memberships.organizationId, organizationId),
        eq(memberships.status, 'DISABLED'),
        or(sql`${held} > 0`, sql`${openCount} > 0`),
      ),
    )
    .orderBy(sql`${held} desc`, users.lastName, users.firstName, users.email)
  return rows
}
