import { eq } from 'drizzle-orm'
import type * as v from 'valibot'
import type { CheckoutSchema, Order, OrderStatus } from '../../../contract/commerce.ts'
import { ErrorCode } from '../../../contract/errors.ts'
import type { Address } from '../../../contract/organizations.ts'
import type { Db } from '../../db/client.ts'
import { orderLines, orders, organizations } from '../../db/schema.ts'
import type { AppDeps } from '../../deps.ts'
import type { OrganizationScope } from '../../http/access.ts'
import type { CurrentSession } from '../../http/env.ts'
import { ApiError, forbidden, notFound } from '../../http/errors.ts'
import { addressOf } from '../../shared/organization.ts'
import { PRICES } from '../prices/prices.ts'
import { takeCart } from './cart.ts'
import { inDisplayOrder, type LineChoice, priceLines, tagConfiguration, totalsOf } from './pricing.ts'
import { orderView } from './view.ts'

type Deps = Pick<AppDeps, 'database' | 'clock'>

/**
 * Makes a CREATED order of the caller's cart in the selected organization, amounts recomputed from the price
 * list, and empties the cart, in one transaction (two concurrent checkouts: the second finds the cart empty,
 * 409 `cart_empty`). A PLAN line needs `manage__subscription` (403, the cart left as it was). Shipping address, when a line ships: the one given, else the first TAG line's, else the
 * organization's address.
 */
export async function checkout(
  deps: Deps,
  input: {
    session: CurrentSession
    scope: OrganizationScope
    operator: boolean
    body: v.InferOutput<typeof CheckoutSchema> | undefined
  },
): Promise<Order> {
  const { session, scope } = input
  const now = deps.clock.now()
  const owner = { userId: session.user.id, organizationId: scope.organizationId }
  const id = await deps.database.db.transaction(async (tx) => {
    const items = await takeCart(tx, owner)
    if (items.length === 0) throw new ApiError(409, ErrorCode.cartEmpty, 'The cart is empty.')
    // A plan is bought by whoever may manage the subscription (the cart may hold one from before a demotion).
    if (
      items.some((item) => item.productType === 'PLAN') &&
      !scope.permissions.includes('manage__subscription')
    ) {
      throw forbidden()
    }
    return createOrder(tx, {
      organizationId: scope.organizationId,
      userId: session.user.id,
      items,
      shippingAddress: input.body?.shippingAddress,
      now,
    })
  })
  return orderView(deps.database.db, id, { operator: input.operator, scope })
}

/**
 * Inserts an order of these lines (priced now, in display order) with its totals; the shipping address, when
 * a line ships, is the one given, else the first TAG line's, else the organization's. Answers its id.
 */
export async function createOrder(
  tx: Db,
  input: {
    organizationId: string
    userId: string
    items: LineChoice[]
    shippingAddress?: Address | undefined
    status?: OrderStatus
    now: Date
  },
): Promise<string> {
  const { organizationId, now } = input
  const lines = inDisplayOrder(await priceLines(tx, PRICES, input.items))
  const tagLines = lines.filter((line) => line.productType === 'TAG')
  let shippingAddress: Address | null = null
  if (tagLines.length > 0) {
    shippingAddress =
      input.shippingAddress ??
      tagLines.map((line) => tagConfiguration(line).shippingAddress).find(Boolean) ??
      (await organizationAddress(tx, organizationId))
  }
  const status = input.status ?? 'CREATED'
  const [order] = await tx
    .insert(orders)
    .values({
      organizationId,
      createdByUserId: input.userId,
      status,
      quantity: tagLines.reduce((sum, line) => sum + line.quantity, 0),
      ...totalsOf(PRICES, lines),
      shippingAddress,
      createdAt: now,
      updatedAt: now,
      paidAt: status === 'CREATED' ? null : now,
    })
    .returning({ id: orders.id })
  await tx.insert(orderLines).values(
    lines.map((line, position) => ({
      orderId: order!.id,
      position,
      productType: line.productType,
      productRefId: line.productRefId,
      quantity: line.quantity,
      unitAmountInCents: line.unitAmountInCents,
      baseUnitAmountInCents: line.baseUnitAmountInCents,
      configuration: line.configuration,
    })),
  )
  return order!.id
}

async function organizationAddress(db: Db, id: string): Promise<Address> {
  const [row] = await db.select().from(organizations).where(eq(organizations.id, id))
  if (!row) throw notFound('No such organization.')
  return addressOf(row)
}
