import { and, count, eq, gte, inArray, lt, ne, or } from 'drizzle-orm'
import type { PlanConfiguration, Subscription } from '../../../contract/commerce.ts'
import { DEFAULT_TIME_ZONE } from '../../../contract/organizations.ts'
import type { Db } from '../../db/client.ts'
import { orders, organizations, type SubscriptionRow, subscriptions, transfers } from '../../db/schema.ts'
import { enqueueJobs } from '../../jobs/queue.ts'
import { addMonthsIn, monthBoundsIn } from '../../shared/time-zones.ts'
import { noticeJob } from '../notices/job.ts'

/**
 * The organization's subscription in force at `now` (period start ≤ now < period end), or null. `lock`: read
 * the row `FOR UPDATE` (inside a transaction), so concurrent transfer authorizations count the allowance one
 * after the other.
 */
export async function activeSubscription(
  db: Db,
  organizationId: string,
  now: Date,
  options: { lock?: boolean } = {},
): Promise<SubscriptionRow | null> {
  const query = db.select().from(subscriptions).where(eq(subscriptions.organizationId, organizationId))
  const [row] = options.lock ? await query.for('update') : await query
  return row && row.currentPeriodStart <= now && now < row.currentPeriodEnd ? row : null
}

/**
 * Transfers authorized in the organization's current calendar month (its time zone, Europe/Paris by default),
 * counted against the plan's allowance: those created in the month, except those CANCELLED before their window
 * closed (cancelling gives the transfer back; tidying away one that expired unused does not). Pass `timeZone` when it is known, to spare a query.
 */
export async function transfersUsedThisMonth(
  db: Db,
  organizationId: string,
  now: Date,
  timeZone?: string,
): Promise<number> {
  const { start, end } = monthBoundsIn(timeZone ?? (await timeZoneOf(db, organizationId)), now)
  const [row] = await db
    .select({ used: count() })
    .from(transfers)
    .where(
      and(
        eq(transfers.organizationId, organizationId),
        gte(transfers.createdAt, start),
        lt(transfers.createdAt, end),
        or(ne(transfers.status, 'CANCELLED'), gte(transfers.cancelledAt, transfers.endsAt)),
      ),
    )
  return row?.used ?? 0
}

export async function timeZoneOf(db: Db, organizationId: string): Promise<string> {
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

/** Admins are told a week before their plan's period ends (unless it is renewed meanwhile). */
const ENDING_NOTICE_MS = 7 * 24 * 60 * 60 * 1000

/**
 * What paying a PLAN line does to the organization's subscription (one row per organization), in the paying
 * transaction; periods are counted on the organization's calendar (its time zone, Europe/Paris by default):
 * 1 month (or 12) × the interval count, the day clamped.
 * - No subscription, or the current one is over: the plan starts now.
 * - The same plan again: the period is extended from the later of now and the current end (paying early
 *   loses nothing); the start stays.
 * - Another plan: it starts now and replaces the current one (no proration) — unless the current
 *   subscription, still running, comes from an order placed after this one (an old unpaid order paid late
 *   never overwrites a newer choice): then the subscription is left as it is.
 * No automatic renewal: a new period is a new order. Answers whether the subscription changed.
 */
export async function startSubscription(
  tx: Db,
  input: { organizationId: string; planId: string; plan: PlanConfiguration; orderId: string; now: Date },
): Promise<boolean> {
  const { organizationId, planId, plan, orderId, now } = input
  const months = (plan.recurringInterval === 'year' ? 12 : 1) * plan.recurringIntervalCount
  const timeZone = await timeZoneOf(tx, organizationId)
  const [current] = await tx
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.organizationId, organizationId))
    .for('update')
  const running = current !== undefined && current.currentPeriodEnd > now
  let start = now
  let from = now
  if (running && current.planId === planId) {
    start = new Date(Math.min(current.currentPeriodStart.getTime(), now.getTime()))
    from = current.currentPeriodEnd
  } else if (running && current.orderId && current.orderId !== orderId) {
    const placed = await tx
      .select({ id: orders.id, number: orders.number })
      .from(orders)
      .where(inArray(orders.id, [current.orderId, orderId]))
    const numberOf = (id: string) => placed.find((row) => row.id === id)?.number
    const currentNumber = numberOf(current.orderId)
    const thisNumber = numberOf(orderId)
    if (currentNumber !== undefined && thisNumber !== undefined && currentNumber > thisNumber) return false
  }
  const values = {
    planId,
    orderId,
    planName: plan.name,
    billingCycle: plan.billingCycle,
    transfersPerMonth: plan.quantity,
    currentPeriodStart: start,
    currentPeriodEnd: addMonthsIn(timeZone, from, months),
    updatedAt: now,
  }
  await tx
    .insert(subscriptions)
    .values({ organizationId, ...values, createdAt: now })
    .onConflictDoUpdate({ target: subscriptions.organizationId, set: values })
  const periodEnd = values.currentPeriodEnd
  const warnAt = new Date(periodEnd.getTime() - ENDING_NOTICE_MS)
  await enqueueJobs(tx, [
    // The same plan paid again while it runs: a renewal, told to the admins (a new plan is told as its order).
    ...(running && current.planId === planId
      ? [noticeJob({ kind: 'subscription.renewed', organizationId }, { now, organizationId })]
      : []),
    // A week before the end (at once for a period shorter than that), unless the period is extended meanwhile.
    noticeJob(
      { kind: 'subscription.ending', organizationId, periodEnd: periodEnd.toISOString() },
      {
        now,
        organizationId,
        runAt: new Date(Math.max(warnAt.getTime(), now.getTime())),
      },
    ),
  ])
  return true
}
