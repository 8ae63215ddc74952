import {
  ORDER_ACTIONS,
  type OrderAction,
  type OrderStatus,
  PAYMENT_PENDING_STATUSES,
} from '../../../contract/commerce.ts'
import type { OrderRow } from '../../db/schema.ts'
import type { OrganizationScope } from '../../http/access.ts'
import { allowedNextStatuses } from './transitions.ts'

/** Who asks about an order: an operator, or a member of the organization of `scope`. */
export type OrderCaller = { operator: boolean; scope: OrganizationScope | null }

/** The operator action that moves an order to each production status. */
export const PRODUCTION_ACTIONS = {
  confirmations: 'CONFIRMED',
  productions: 'PRODUCING',
  shipments: 'SHIPPED',
  deliveries: 'DELIVERED',
} as const satisfies Partial<Record<OrderAction, OrderStatus>>

export const isPaymentPending = (status: OrderStatus) =>
  (PAYMENT_PENDING_STATUSES as readonly OrderStatus[]).includes(status)

/** PAID or any later status: the tags exist. */
export const isPaid = (status: OrderStatus) => !isPaymentPending(status)

/**
 * What the caller may do with the order now:
 * - a member with `create__order` in its organization: `sessions` while the payment is pending (CREATED,
 *   UNPAID, EXPIRED), `checks` once a payment session exists and the payment is still pending;
 * - an operator: `checks` likewise, and the production move its status allows (`confirmations`, …);
 * - `tags-exports` once paid, for an operator or a member with `read__order`, when the order has tags.
 */
export function actionsFor(
  order: Pick<OrderRow, 'status' | 'quantity' | 'organizationId' | 'paymentSessionId'>,
  caller: OrderCaller,
): OrderAction[] {
  const member =
    caller.scope?.organizationId === order.organizationId ? caller.scope.permissions : ([] as string[])
  const canPay = member.includes('create__order')
  const pending = isPaymentPending(order.status)
  const actions = new Set<OrderAction>()
  if (pending && canPay) actions.add('sessions')
  if (pending && order.paymentSessionId && (canPay || caller.operator)) actions.add('checks')
  if (caller.operator) {
    const next = allowedNextStatuses(order)
    for (const [action, status] of Object.entries(PRODUCTION_ACTIONS)) {
      if (next.includes(status)) actions.add(action as OrderAction)
    }
  }
  if (isPaid(order.status) && order.quantity > 0 && (caller.operator || member.includes('read__order'))) {
    actions.add('tags-exports')
  }
  return ORDER_ACTIONS.filter((action) => actions.has(action))
}
