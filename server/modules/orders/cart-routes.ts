import { cartEndpoints } from '../../../contract/endpoints/cart.ts'
import type { AppDeps } from '../../deps.ts'
import { inSelectedOrganization } from '../../http/access.ts'
import type { ApiRouter } from '../../http/api-router.ts'
import { addCartItem, clearCart, getCart, removeCartItem, tagNumberingOfCart } from './cart.ts'
import { checkout } from './checkout.ts'

/** The caller's cart of the selected organization: without a selection, every call is a 400. */
export function cartRoutes(api: ApiRouter, deps: AppDeps): void {
  const { db } = deps.database

  api.route(
    {
      ...cartEndpoints.one,
      summary: 'The cart, priced now (plan, tag, accessory, other) with its totals',
      access: inSelectedOrganization('read__cart'),
      responses: { 200: { description: 'The cart' } },
    },
    async (c, { session, organization }) =>
      c.json(
        await getCart(db, { userId: session.user.id, organizationId: organization.organizationId }),
        200,
      ),
  )

  api.route(
    {
      ...cartEndpoints.addItem,
      summary:
        'Add a line: TAG (needs create__order) or PLAN (needs manage__subscription; replaces the cart’s plan). A unit amount other than the server’s is refused (409 price_mismatch)',
      access: inSelectedOrganization('update__cart'),
      responses: {
        201: { description: 'Added; the whole cart' },
        409: {
          description: '`price_mismatch` (with expectedUnitAmountInCents), or `conflict`: the cart is full',
        },
      },
    },
    async (c, { session, organization, body }) => {
      const owner = { userId: session.user.id, organizationId: organization.organizationId }
      await addCartItem(db, { owner, scope: organization, item: body, now: deps.clock.now() })
      return c.json(await getCart(db, owner), 201)
    },
  )

  api.route(
    {
      ...cartEndpoints.tagNumbers,
      summary:
        'The codes a new TAG line would really carry if the cart were paid now (a taken range continues after the last number), the alpha code to propose and where its next series starts',
      access: inSelectedOrganization('create__order'),
      responses: { 200: { description: 'The numbering' } },
    },
    async (c, { session, organization, query }) => {
      const owner = { userId: session.user.id, organizationId: organization.organizationId }
      return c.json(await tagNumberingOfCart(db, owner, query), 200)
    },
  )

  api.route(
    {
      ...cartEndpoints.removeItem,
      summary: 'Remove a line from the cart',
      access: inSelectedOrganization('update__cart'),
      responses: { 204: { description: 'Removed' } },
    },
    async (c, { session, organization, params }) => {
      const owner = { userId: session.user.id, organizationId: organization.organizationId }
      await removeCartItem(db, owner, params.id)
      return c.body(null, 204)
    },
  )

  api.route(
    {
      ...cartEndpoints.empty,
      summary: 'Empty the cart',
      access: inSelectedOrganization('update__cart'),
      responses: { 204: { description: 'Emptied' } },
    },
    async (c, { session, organization }) => {
      await clearCart(db, { userId: session.user.id, organizationId: organization.organizationId })
      return c.body(null, 204)
    },
  )

  api.route(
    {
      ...cartEndpoints.checkout,
      summary:
        'Turn the cart into an order (CREATED, amounts recomputed) and empty it; shipping to the given address, else the organization’s',
      access: inSelectedOrganization('create__order'),
      responses: {
        201: { description: 'The new order' },
        409: { description: '`cart_empty`, or `conflict`: a plan of the cart is no longer offered' },
      },
    },
    async (c, { session, organization, operator, body }) =>
      c.json(await checkout(deps, { session, scope: organization, operator, body }), 201),
  )
}
