import { and, eq } from 'drizzle-orm'
import { ORDER_TRANSITIONS, type OrderStatus } from '../../../contract/commerce.ts'
import { ErrorCode } from '../../../contract/errors.ts'
import type { Db } from '../../db/client.ts'
import { type OrderRow, orders } from '../../db/schema.ts'
import { ApiError, notFound } from '../../http/errors.ts'
import { enqueueJobs } from '../../jobs/queue.ts'
import { noticeJob } from '../notices/job.ts'
import { enqueueWebhookEvent } from '../webhooks/enqueue.ts'

/** The moves the organization's admins are told of by mail. */
const NOTICES: Partial<Record<OrderStatus, 'order.paid' | 'order.shipped' | 'order.delivered'>> = {
  PAID: 'order.paid',
  SHIPPED: 'order.shipped',
  DELIVERED: 'order.delivered',
}

/** Statuses of the production line: an order without anything to ship (a plan only) never enters it. */
const PRODUCTION: readonly OrderStatus[] = ['CONFIRMED', 'PRODUCING', 'SHIPPED', 'DELIVERED']

export const shipsSomething = (order: Pick<OrderRow, 'quantity'>) => order.quantity > 0

/**
 * The statuses an order may move to next: `ORDER_TRANSITIONS`, less the production line for an order that
 * ships nothing (a plan-only order ends at PAID).
 */
export function allowedNextStatuses(order: Pick<OrderRow, 'status' | 'quantity'>): OrderStatus[] {
  const next = ORDER_TRANSITIONS[order.status]
  return shipsSomething(order) ? [...next] : next.filter((status) => !PRODUCTION.includes(status))
}

/** 409 `invalid_transition`, naming (in the message and in `allowed`) the statuses the order may move to. */
export function invalidTransition(
  from: OrderStatus,
  to: OrderStatus | null,
  allowed: OrderStatus[],
  what = to ? `An order ${from} cannot become ${to}.` : `Not possible for an order ${from}.`,
): ApiError {
  const next = allowed.length > 0 ? allowed.join(', ') : 'none (final status)'
  return new ApiError(409, ErrorCode.invalidTransition, `${what} Allowed next: ${next}.`, {
    fields: { allowed },
  })
}

/**
 * The one place an order changes status. Checks the move against `allowedNextStatuses`, then applies it with
 * a conditional `UPDATE … WHERE status = <the status it was checked against>`: of two concurrent moves from
 * one status only one updates a row; the other answers 409 `invalid_transition` from the status it lost to.
 * `effect` runs in the same transaction (PAID creates the order's tags and subscription there).
 */
export async function moveOrder(
  db: Db,
  input: { orderId: string; to: OrderStatus; now: Date },
  effect?: (tx: Db, order: OrderRow) => Promise<void>,
): Promise<OrderRow> {
  const { orderId, to, now } = input
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(orders).where(eq(orders.id, orderId))
    if (!current) throw notFound('No such order.')
    const allowed = allowedNextStatuses(current)
    if (!allowed.includes(to)) throw invalidTransition(current.status, to, allowed)
    const [moved] = await tx
      .update(orders)
      .set({ status: to, updatedAt: now, ...(to === 'PAID' ? { paidAt: now } : {}) })
      .where(and(eq(orders.id, orderId), eq(orders.status, current.status)))
      .returning()
    if (!moved) {
      const [latest] = await tx.select().from(orders).where(eq(orders.id, orderId))
      // Stryker disable next-line all: orders are never deleted, and this one was read in this transaction
      if (!latest) throw notFound('No such order.')
      throw invalidTransition(latest.status, to, allowedNextStatuses(latest))
    }
    if (effect) await effect(tx, moved)
    await enqueueWebhookEvent(tx, {
      organizationId: moved.organizationId,
      type: 'order.status_changed',
      occurredAt: now,
      data: { orderId, from: current.status, to },
    })
    const notice = NOTICES[to]
    if (notice) {
      await enqueueJobs(tx, [
        noticeJob({ kind: notice, orderId }, { now, organizationId: moved.organizationId }),
      ])
    }
    return moved
  })
}
