import { and, asc, count, eq, inArray, sql } from 'drizzle-orm'
import type * as v from 'valibot'
import {
  type Cart,
  type CartItem,
  type CartItemCreateSchema,
  TAG_NUMBER_MAX,
  TAG_PRODUCT_ID,
  type TagNumbering,
  tagNumbersFit,
} from '../../../contract/commerce.ts'
import { ErrorCode } from '../../../contract/errors.ts'
import type { Db } from '../../db/client.ts'
import { type CartItemRow, cartItems, plans } from '../../db/schema.ts'
import type { OrganizationScope } from '../../http/access.ts'
import { ApiError, forbidden, notFound } from '../../http/errors.ts'
import { MAX_CART_ITEMS } from '../../shared/cart-limits.ts'
import { findActivePlan, planConfiguration } from '../plans/service.ts'
import { PRICES } from '../prices/prices.ts'
import { inDisplayOrder, type PricedLine, priceLines, totalsOf } from './pricing.ts'
import { plannedLineCodes, type TagLinePlan, tagLinePlan, tagNumbering } from './tag-numbers.ts'

export type CartOwner = { userId: string; organizationId: string }
type ItemCreate = v.InferOutput<typeof CartItemCreateSchema>

const ownedBy = (owner: CartOwner) =>
  and(eq(cartItems.userId, owner.userId), eq(cartItems.organizationId, owner.organizationId))

async function cartRows(db: Db, owner: CartOwner): Promise<CartItemRow[]> {
  return db.select().from(cartItems).where(ownedBy(owner)).orderBy(asc(cartItems.seq))
}

function toCartItem(line: PricedLine<CartItemRow>, codes: CartItem['codes']): CartItem {
  return {
    id: line.id,
    productType: line.productType,
    productRefId: line.productRefId,
    quantity: line.quantity,
    unitAmountInCents: line.unitAmountInCents,
    lineTotalInCents: line.lineTotalInCents,
    configuration: line.configuration as CartItem['configuration'],
    ...(codes ? { codes } : {}),
  }
}

/**
 * The (user, organization) cart, priced now: plan, tag, accessory, other; totals by `priceBreakdown`. A plan
 * no longer offered leaves the cart here (it could be neither shown with a price nor ordered).
 */
export async function getCart(db: Db, owner: CartOwner): Promise<Cart> {
  let rows = await cartRows(db, owner)
  const stale = await unavailablePlanLines(db, rows)
  if (stale.length > 0) {
    await db.delete(cartItems).where(and(ownedBy(owner), inArray(cartItems.id, stale)))
    rows = rows.filter((row) => !stale.includes(row.id))
  }
  const lines = inDisplayOrder(await priceLines(db, PRICES, rows))
  // Paying numbers the TAG lines in this order (the order keeps the cart's display order).
  const codes = await plannedLineCodes(db, owner.organizationId, lines)
  return {
    organizationId: owner.organizationId,
    items: lines.map((line, index) => toCartItem(line, codes[index])),
    itemCount: lines.length,
    totals: totalsOf(PRICES, lines),
  }
}

async function unavailablePlanLines(db: Db, rows: CartItemRow[]): Promise<string[]> {
  const planLines = rows.filter((row) => row.productType === 'PLAN')
  if (planLines.length === 0) return []
  const offered = await db
    .select({ id: plans.id })
    .from(plans)
    .where(
      and(
        eq(plans.active, true),
        inArray(
          plans.id,
          planLines.map((row) => row.productRefId),
        ),
      ),
    )
  const ids = new Set(offered.map((plan) => plan.id))
  return planLines.filter((row) => !ids.has(row.productRefId)).map((row) => row.id)
}

const priceMismatch = (expected: number) =>
  new ApiError(
    409,
    ErrorCode.priceMismatch,
    'The price has changed: check the new amount and add the item again.',
    { fields: { expectedUnitAmountInCents: expected } },
  )

const invalid = (path: string, message: string) =>
  new ApiError(400, ErrorCode.validation, message, { issues: [{ path, message }] })

/**
 * Adds a line to the caller's cart of the selected organization. The server computes the unit amount and
 * refuses a different one (409 `price_mismatch`). TAG lines need `create__order`, PLAN lines
 * `manage__subscription`; a plan replaces the cart's previous plan.
 */
export async function addCartItem(
  db: Db,
  input: { owner: CartOwner; scope: OrganizationScope; item: ItemCreate; now: Date },
): Promise<void> {
  const { owner, scope, item, now } = input
  if (item.productType === 'TAG') {
    if (!scope.permissions.includes('create__order')) throw forbidden()
    if (item.productRefId !== TAG_PRODUCT_ID) throw invalid('productRefId', 'No such product.')
    if (item.configuration.replacesTagId !== undefined) {
      throw invalid(
        'configuration.replacesTagId',
        'Order a replacement from the tag (POST /tags/{id}/replacements).',
      )
    }
    const { startNumber } = item.configuration
    if (!tagNumbersFit(startNumber, item.quantity)) {
      throw invalid(
        'configuration.startNumber',
        `Tag numbers stop at ${TAG_NUMBER_MAX}: start at ${TAG_NUMBER_MAX - item.quantity + 1} at most for ${item.quantity} tags.`,
      )
    }
    const [priced] = await priceLines(db, PRICES, [item])
    if (priced!.unitAmountInCents !== item.unitAmountInCents) throw priceMismatch(priced!.unitAmountInCents)
    await db.transaction(async (tx) => {
      const [row] = await tx.select({ n: count() }).from(cartItems).where(ownedBy(owner))
      if ((row?.n ?? 0) >= MAX_CART_ITEMS) {
        throw new ApiError(409, ErrorCode.conflict, `A cart holds ${MAX_CART_ITEMS} items at most.`)
      }
      await tx.insert(cartItems).values({
        ...owner,
        productType: 'TAG',
        productRefId: TAG_PRODUCT_ID,
        quantity: item.quantity,
        configuration: item.configuration,
        createdAt: now,
      })
    })
    return
  }

  if (!scope.permissions.includes('manage__subscription')) throw forbidden()
  const plan = await findActivePlan(db, item.productRefId)
  if (!plan) throw notFound('No such plan.')
  if (plan.amountInCents !== item.unitAmountInCents) throw priceMismatch(plan.amountInCents)
  const configuration = planConfiguration(plan)
  const { name: _, ...expected } = configuration
  for (const [key, value] of Object.entries(expected)) {
    if (item.configuration[key as keyof typeof expected] !== value) {
      throw invalid(`configuration.${key}`, 'The plan configuration does not match the plan.')
    }
  }
  // One plan per cart: the upsert replaces the previous one (a new id, at the end of the cart).
  await db
    .insert(cartItems)
    .values({
      ...owner,
      productType: 'PLAN',
      productRefId: plan.id,
      quantity: 1,
      configuration,
      createdAt: now,
    })
    .onConflictDoUpdate({
      target: [cartItems.userId, cartItems.organizationId],
      targetWhere: sql`${cartItems.productType} = 'PLAN'`,
      set: { id: sql`gen_random_uuid()`, productRefId: plan.id, configuration, createdAt: now },
    })
}

/** `GET /cart/tag-numbers`: the numbering of a new TAG line after the lines already in the cart. */
export async function tagNumberingOfCart(
  db: Db,
  owner: CartOwner,
  query: { alphaCode?: string; startNumber?: number; quantity?: number },
): Promise<TagNumbering> {
  const lines = inDisplayOrder(await cartRows(db, owner)).map(tagLinePlan)
  const tagLines = lines.filter((line): line is TagLinePlan => line !== null)
  return tagNumbering(db, owner.organizationId, tagLines, query)
}

export async function removeCartItem(db: Db, owner: CartOwner, id: string): Promise<void> {
  const removed = await db
    .delete(cartItems)
    .where(and(ownedBy(owner), eq(cartItems.id, id)))
    .returning({ id: cartItems.id })
  if (removed.length === 0) throw notFound('No such cart item.')
}

/** Empties the cart (the "empty cart" button; also when the user leaves the organization). */
export async function clearCart(db: Db, owner: CartOwner): Promise<void> {
  await db.delete(cartItems).where(ownedBy(owner))
}

/** Takes every line out of the cart at once (checkout): a concurrent checkout gets none of them. */
export async function takeCart(db: Db, owner: CartOwner): Promise<CartItemRow[]> {
  const rows = await db.delete(cartItems).where(ownedBy(owner)).returning()
  return rows.sort((a, b) => a.seq - b.seq)
}
