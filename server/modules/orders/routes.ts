import { orderEndpoints } from '../../../contract/endpoints/orders.ts'
import type { AppDeps } from '../../deps.ts'
import { inPathOrganization, inSelectedOrganization, orOperator } from '../../http/access.ts'
import type { ApiRouter } from '../../http/api-router.ts'
import { orderReference } from '../../shared/order-reference.ts'
import { PRODUCTION_ACTIONS } from './actions.ts'
import { checkout } from './checkout.ts'
import { listOrders } from './list.ts'
import { checkPayment, startPaymentSession } from './payment.ts'
import { assertTagsExist, orderTags, tagsCsv } from './tags.ts'
import { moveOrder } from './transitions.ts'
import { findVisibleOrder, orderView } from './view.ts'

const readOrders = orOperator(inSelectedOrganization('read__order'))
const invalidTransition = { description: 'invalid_transition: the body lists the `allowed` next statuses' }

/**
 * Orders: members see their selected organization's, operators every organization's. Status changes go
 * through `moveOrder` (transitions.ts) only.
 */
export function orderRoutes(api: ApiRouter, deps: AppDeps): void {
  const { db } = deps.database

  api.route(
    {
      ...orderEndpoints.create,
      summary: 'Order the cart (same as POST /cart/checkout)',
      access: inSelectedOrganization('create__order'),
      responses: {
        201: { description: 'The new order (CREATED)' },
        409: { description: 'cart_empty' },
      },
    },
    async (c, { session, organization, operator, body }) =>
      c.json(await checkout(deps, { session, scope: organization, operator, body }), 201),
  )

  api.route(
    {
      ...orderEndpoints.list,
      summary:
        'Orders, newest first (paginated; `status`): the selected organization’s, or all for operators',
      access: readOrders,
      responses: { 200: { description: 'A page of orders' } },
    },
    async (c, { organization, operator, query }) =>
      c.json(
        await listOrders(db, {
          organizationId: operator ? null : organization!.organizationId,
          query,
          caller: { operator, scope: organization },
        }),
        200,
      ),
  )

  api.route(
    {
      ...orderEndpoints.ofOrganization,
      summary: "The organization's orders, newest first (paginated; `status`)",
      access: inPathOrganization('read__order'),
      responses: { 200: { description: 'A page of orders' } },
    },
    async (c, { organization, operator, query }) =>
      c.json(
        await listOrders(db, {
          organizationId: organization.organizationId,
          query,
          caller: { operator, scope: organization },
        }),
        200,
      ),
  )

  api.route(
    {
      ...orderEndpoints.one,
      summary: 'One order, with the actions the caller may take on it',
      access: readOrders,
      responses: { 200: { description: 'The order' } },
    },
    async (c, { organization, operator, params }) =>
      c.json(await orderView(db, params.id, { operator, scope: organization }), 200),
  )

  api.route(
    {
      ...orderEndpoints.details,
      summary: 'One order with its tags (once paid)',
      access: readOrders,
      responses: { 200: { description: 'The order and its tags' } },
    },
    async (c, { organization, operator, params }) => {
      const caller = { operator, scope: organization }
      const { order: row } = await findVisibleOrder(db, params.id, caller)
      const [order, tags] = await Promise.all([
        orderView(db, params.id, caller),
        orderTags(db, row, deps.config.publicUrl),
      ])
      return c.json({ order, tags }, 200)
    },
  )

  api.route(
    {
      ...orderEndpoints.startPayment,
      summary: 'Open a payment session (CREATED, UNPAID or EXPIRED order): where to send the payer',
      access: inSelectedOrganization('create__order'),
      responses: {
        201: { description: 'The checkout page to go to' },
        409: invalidTransition,
        503: { description: 'The payment provider cannot be reached' },
      },
    },
    async (c, { organization, operator, params }) =>
      c.json(await startPaymentSession(deps, params.id, { operator, scope: organization }), 201),
  )

  api.route(
    {
      ...orderEndpoints.checkPayment,
      summary:
        'Ask the payment provider about the order’s session and apply the answer (PAID, UNPAID, EXPIRED)',
      access: orOperator(inSelectedOrganization('create__order')),
      responses: {
        200: { description: 'The order, updated' },
        409: { description: 'No payment session yet' },
        503: { description: 'The payment provider cannot be reached' },
      },
    },
    async (c, { organization, operator, params }) =>
      c.json(await checkPayment(deps, params.id, { operator, scope: organization }), 200),
  )

  for (const [action, status] of Object.entries(PRODUCTION_ACTIONS)) {
    api.route(
      {
        ...orderEndpoints[action as keyof typeof PRODUCTION_ACTIONS],
        summary: `Operators: move the order to ${status}`,
        access: 'operator',
        responses: { 200: { description: 'The order, moved' }, 409: invalidTransition },
      },
      async (c, { operator, params }) => {
        const caller = { operator, scope: null }
        await findVisibleOrder(db, params.id, caller)
        await moveOrder(db, { orderId: params.id, to: status, now: deps.clock.now() })
        deps.jobs.nudge()
        return c.json(await orderView(db, params.id, caller), 200)
      },
    )
  }

  api.route(
    {
      ...orderEndpoints.exportTags,
      summary:
        'CSV download of a paid order’s tags: code, name, foreground_color, background_color, url (operators, and members with read__order)',
      access: readOrders,
      responses: {
        200: { description: 'text/csv; charset=utf-8, as an attachment' },
        409: { description: 'The order is not paid yet' },
      },
    },
    async (c, { organization, operator, params }) => {
      const { order } = await findVisibleOrder(db, params.id, { operator, scope: organization })
      assertTagsExist(order)
      const csv = tagsCsv(await orderTags(db, order, deps.config.publicUrl))
      return c.body(csv, 200, {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="${orderReference(order)}-tags.csv"`,
      })
    },
  )
}
