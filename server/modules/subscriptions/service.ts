import { and, eq, gt, lte } from 'drizzle-orm'
import type { PlanConfiguration, Subscription } from '../../../contract/commerce.ts'
import type { Db } from '../../db/client.ts'
import { organizations, type SubscriptionRow, subscriptions } from '../../db/schema.ts'
import { addMonths, monthBoundsIn } from './calendar.ts'

export const DEFAULT_TIME_ZONE = 'Europe/Paris'

/**
 * The organization's subscription in force at `now` (period start ≤ now < period end), or null. The transfers
 * issue calls this before authorizing a transfer.
 */
export async function activeSubscription(
  db: Db,
  organizationId: string,
  now: Date,
): Promise<SubscriptionRow | null> {
  const [row] = await db
    .select()
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.organizationId, organizationId),
        lte(subscriptions.currentPeriodStart, now),
        gt(subscriptions.currentPeriodEnd, now),
      ),
    )
  return row ?? null
}

/**
 * Transfers authorized in the organization's current calendar month (its time zone, Europe/Paris by default),
 * counted against the plan's allowance. There are no transfers yet: the transfers issue fills this in, using
 * `monthBoundsIn(timeZone, now)` for the month.
 */
export async function transfersUsedThisMonth(_db: Db, _organizationId: string, _now: Date): Promise<number> {
  return 0
}

async function timeZoneOf(db: Db, organizationId: string): Promise<string> {
  const [row] = await db
    .select({ timeZone: organizations.timeZone })
    .from(organizations)
    .where(eq(organizations.id, organizationId))
  return row?.timeZone ?? DEFAULT_TIME_ZONE
}

/** `GET /organizations/{id}/subscription`: the current (or last, then EXPIRED) subscription, or null. */
export async function organizationSubscription(
  db: Db,
  organizationId: string,
  now: Date,
): Promise<Subscription | null> {
  const [row] = await db.select().from(subscriptions).where(eq(subscriptions.organizationId, organizationId))
  if (!row) return null
  const active = row.currentPeriodStart <= now && now < row.currentPeriodEnd
  const { end: nextMonth } = monthBoundsIn(await timeZoneOf(db, organizationId), now)
  return {
    planId: row.planId,
    planName: row.planName,
    billingCycle: row.billingCycle,
    status: active ? 'ACTIVE' : 'EXPIRED',
    currentPeriodStart: row.currentPeriodStart.toISOString(),
    currentPeriodEnd: row.currentPeriodEnd.toISOString(),
    transfersPerMonth: row.transfersPerMonth,
    transfersUsedThisMonth: active ? await transfersUsedThisMonth(db, organizationId, now) : 0,
    allowanceRenewsAt: nextMonth.toISOString(),
  }
}

/**
 * Starts the organization's subscription to a paid plan, or replaces the current one: the period runs from
 * `now` for 1 month (or 12) × the interval count. No proration, no automatic renewal: a new period is a new
 * order. Runs in the paying transaction.
 */
export async function startSubscription(
  tx: Db,
  input: { organizationId: string; planId: string; plan: PlanConfiguration; orderId: string; now: Date },
): Promise<void> {
  const { organizationId, planId, plan, orderId, now } = input
  const months = (plan.recurringInterval === 'year' ? 12 : 1) * plan.recurringIntervalCount
  const values = {
    planId,
    orderId,
    planName: plan.name,
    billingCycle: plan.billingCycle,
    transfersPerMonth: plan.quantity,
    currentPeriodStart: now,
    currentPeriodEnd: addMonths(now, months),
    updatedAt: now,
  }
  await tx
    .insert(subscriptions)
    .values({ organizationId, ...values, createdAt: now })
    .onConflictDoUpdate({ target: subscriptions.organizationId, set: values })
}
