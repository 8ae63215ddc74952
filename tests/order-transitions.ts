import type { OrderStatus } from '../contract/commerce.ts'

/**
 * The moves an order may make, written out here apart from ORDER_TRANSITIONS, so that the tests comparing the
 * rules with it fail when the rules change.
 */
export const EXPECTED_TRANSITIONS: Record<OrderStatus, OrderStatus[]> = {
  CREATED: ['PAID', 'UNPAID', 'EXPIRED'],
  UNPAID: ['PAID', 'EXPIRED'],
  EXPIRED: ['PAID', 'UNPAID'],
  PAID: ['CONFIRMED'],
  CONFIRMED: ['PRODUCING'],
  PRODUCING: ['SHIPPED'],
  SHIPPED: ['DELIVERED'],
  DELIVERED: [],
}
