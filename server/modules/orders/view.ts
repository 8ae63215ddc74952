import { asc, eq, inArray } from 'drizzle-orm'
import type { Order, OrderAction } from '../../../contract/commerce.ts'
import type { Db } from '../../db/client.ts'
import { type OrderLineRow, type OrderRow, orderLines, orders, organizations } from '../../db/schema.ts'
import { notFound } from '../../http/errors.ts'
import { orderReference } from '../../shared/order-reference.ts'
import { actionsFor, isPaymentPending, type OrderCaller } from './actions.ts'
import { plannedLineCodes } from './tag-numbers.ts'

/** Who looks at an order: their permissions in the organization they work in, and operator or not. */
function toOrder(row: OrderRow, lines: OrderLineRow[], organizationName: string, caller: OrderCaller): Order {
  return {
    id: row.id,
    reference: orderReference(row),
    status: row.status,
    organization: { id: row.organizationId, name: organizationName },
    quantity: row.quantity,
    createdAt: row.createdAt.toISOString(),
    totals: {
      subtotalInCents: row.subtotalInCents,
      discountInCents: row.discountInCents,
      shippingInCents: row.shippingInCents,
      freeShipping: row.freeShipping,
      taxInCents: row.taxInCents,
      totalInCents: row.totalInCents,
    },
    lines: lines.map((line) => ({
      id: line.id,
      productType: line.productType,
      productRefId: line.productRefId,
      quantity: line.quantity,
      unitAmountInCents: line.unitAmountInCents,
      lineTotalInCents: line.unitAmountInCents * line.quantity,
      configuration: line.configuration as Order['lines'][number]['configuration'],
    })),
    shippingAddress: row.shippingAddress ?? null,
    actions: actionsFor(row, caller) satisfies OrderAction[],
  }
}

async function linesOf(db: Db, orderIds: string[]): Promise<Map<string, OrderLineRow[]>> {
  const byOrder = new Map<string, OrderLineRow[]>(orderIds.map((id) => [id, []]))
  if (orderIds.length === 0) return byOrder
  const rows = await db
    .select()
    .from(orderLines)
    .where(inArray(orderLines.orderId, orderIds))
    .orderBy(asc(orderLines.position))
  for (const row of rows) byOrder.get(row.orderId)?.push(row)
  return byOrder
}

/** Orders (with their organization's name) as the caller sees them, in the given order. */
export async function toOrders(
  db: Db,
  rows: Array<{ order: OrderRow; organizationName: string }>,
  caller: OrderCaller,
): Promise<Order[]> {
  const lines = await linesOf(
    db,
    rows.map((row) => row.order.id),
  )
  return rows.map((row) => toOrder(row.order, lines.get(row.order.id) ?? [], row.organizationName, caller))
}

export const orderColumns = { order: orders, organizationName: organizations.name }

/**
 * The order if the caller may see it: any order for an operator, otherwise only one of the organization they
 * work in (another organization's order is a 404, never a 403).
 */
export async function findVisibleOrder(
  db: Db,
  id: string,
  caller: OrderCaller,
): Promise<{ order: OrderRow; organizationName: string }> {
  const [row] = await db
    .select(orderColumns)
    .from(orders)
    .innerJoin(organizations, eq(organizations.id, orders.organizationId))
    .where(eq(orders.id, id))
  if (!row) throw notFound('No such order.')
  if (!caller.operator && row.order.organizationId !== caller.scope?.organizationId) {
    throw notFound('No such order.')
  }
  return row
}

/** One order; before payment its TAG lines carry the codes paying now would print (`codes`). */
export async function orderView(db: Db, id: string, caller: OrderCaller): Promise<Order> {
  const [order] = await toOrders(db, [await findVisibleOrder(db, id, caller)], caller)
  if (!isPaymentPending(order!.status)) return order!
  const codes = await plannedLineCodes(db, order!.organization.id, order!.lines)
  return {
    ...order!,
    lines: order!.lines.map((line, index) => (codes[index] ? { ...line, codes: codes[index] } : line)),
  }
}
