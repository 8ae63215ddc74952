import { and, asc, eq, gt, inArray, isNull, lte, sql } from 'drizzle-orm'
import {
  DASHBOARD_MINE_SHOWN,
  type DashboardAllowance,
  type DashboardMine,
} from '../../../contract/dashboard.ts'
import type { Db } from '../../db/client.ts'
import {
  keychains,
  orders,
  organizationCounters,
  organizations,
  subscriptions,
  transfers,
} from '../../db/schema.ts'
import { monthBoundsIn } from '../../shared/time-zones.ts'
import { transfersUsedThisMonth } from '../subscriptions/service.ts'

/** Orders past payment: their tags exist, or are being made. */
const PAID_ORDER_STATUSES = ['PAID', 'CONFIRMED', 'PRODUCING', 'SHIPPED', 'DELIVERED'] as const

/**
 * Scalar subqueries for the dashboard's first statement (each reads one row through a primary key or an
 * organization's index, never the organization's keychains or tags): tags made or paid for, a plan chosen once,
 * the monthly allowance of the plan in force at `now` (null without one) and the organization's time zone.
 */
export function setupColumns(organizationId: string, now: Date) {
  const subscription = eq(subscriptions.organizationId, organizationId)
  return {
    tagsMade: sql<boolean>`coalesce((select ${organizationCounters.tags} > 0 from ${organizationCounters}
      where ${organizationCounters.organizationId} = ${organizationId}), false)`.mapWith(Boolean),
    tagsPaid: sql<boolean>`exists (select 1 from ${orders} where ${and(
      eq(orders.organizationId, organizationId),
      gt(orders.quantity, 0),
      inArray(orders.status, [...PAID_ORDER_STATUSES]),
    )})`.mapWith(Boolean),
    planChosen: sql<boolean>`exists (select 1 from ${subscriptions} where ${subscription})`.mapWith(Boolean),
    allowanceLimit: sql<number | null>`(select ${subscriptions.transfersPerMonth} from ${subscriptions}
      where ${and(subscription, lte(subscriptions.currentPeriodStart, now), gt(subscriptions.currentPeriodEnd, now))})`,
    timeZone: sql<string>`(select ${organizations.timeZone} from ${organizations}
      where ${organizations.id} = ${organizationId})`,
  }
}

type SetupFigures = {
  tagsMade: boolean
  tagsPaid: boolean
  planChosen: boolean
  allowanceLimit: number | string | null
  timeZone: string
}

/** The checklist's tag and plan steps, and the plan in force (its allowance, null without one). */
export function setupOf(figures: SetupFigures) {
  return {
    steps: { tags: figures.tagsMade || figures.tagsPaid, plan: figures.planChosen },
    plan: {
      limit: figures.allowanceLimit === null ? null : Number(figures.allowanceLimit),
      timeZone: figures.timeZone,
    },
  }
}

/** This month's transfers against the plan in force, counted as the plans page and the authorization do. */
export async function allowanceOf(
  db: Db,
  organizationId: string,
  plan: { limit: number | null; timeZone: string },
  now: Date,
): Promise<DashboardAllowance | null> {
  if (plan.limit === null) return null
  const used = await transfersUsedThisMonth(db, organizationId, now, plan.timeZone)
  return { used, limit: plan.limit, renewsAt: monthBoundsIn(plan.timeZone, now).end.toISOString() }
}

/**
 * The keychains the user holds (custodian) in the organization, deleted ones aside, through its (organization,
 * custodian) index: those out to them on a transfer first, earliest due date first, then by name; with the total.
 */
export async function heldKeychains(db: Db, organizationId: string, userId: string): Promise<DashboardMine> {
  const rows = await db
    .select({
      id: keychains.id,
      name: keychains.name,
      transferId: transfers.id,
      dueDate: sql<string | null>`${transfers.toDate}::text`,
      total: sql<number>`count(*) over ()`.mapWith(Number),
    })
    .from(keychains)
    .leftJoin(
      transfers,
      and(
        eq(transfers.keychainId, keychains.id),
        eq(transfers.recipientId, userId),
        eq(transfers.status, 'TRANSFERRED'),
      ),
    )
    .where(
      and(
        eq(keychains.organizationId, organizationId),
        eq(keychains.custodianId, userId),
        isNull(keychains.deletedAt),
      ),
    )
    .orderBy(sql`${transfers.toDate} asc nulls last`, sql`lower(${keychains.name})`, asc(keychains.id))
    .limit(DASHBOARD_MINE_SHOWN)
  return {
    total: rows[0]?.total ?? 0,
    keychains: rows.map(({ total: _, dueDate, ...row }) => ({
      ...row,
      dueDate: dueDate === null ? null : String(dueDate),
    })),
  }
}
