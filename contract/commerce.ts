import * as v from 'valibot'
import { IdSchema, listOf, PageQuerySchema, pageOf, requiredText } from './common.ts'
import { AddressSchema } from './organizations.ts'
import { MIN_QR_CONTRAST, qrColorsReadable, TAG_QUANTITY_MAX, TAG_QUANTITY_MIN } from './pricing.ts'
import { ColorSchema, TagSchema } from './tags.ts'

/** Display order of product types in a cart: plan, tag, accessory, other. */
export const PRODUCT_TYPES = ['PLAN', 'TAG', 'ACCESSORY', 'OTHER'] as const
export type ProductType = (typeof PRODUCT_TYPES)[number]
/** What can be put in a cart today. */
export const CartProductTypeSchema = v.picklist(['PLAN', 'TAG'], 'Product type must be PLAN or TAG.')

export const BILLING_CYCLES = ['MONTHLY', 'YEARLY'] as const
const BillingCycleSchema = v.picklist(BILLING_CYCLES)
export type BillingCycle = (typeof BILLING_CYCLES)[number]

const PlanSchema = v.object({
  id: v.string(),
  name: v.string(),
  amountInCents: v.number(),
  /** `year` means YEARLY, anything else MONTHLY. */
  recurringInterval: v.picklist(['month', 'year']),
  recurringIntervalCount: v.number(),
  /** Transfers allowed per calendar month. */
  quantity: v.number(),
})
export type Plan = v.InferOutput<typeof PlanSchema>
export const PlanListSchema = listOf(PlanSchema)

export const PlanConfigurationSchema = v.strictObject({
  billingCycle: BillingCycleSchema,
  recurringInterval: v.picklist(['month', 'year']),
  recurringIntervalCount: v.pipe(v.number(), v.integer(), v.minValue(1)),
  quantity: v.pipe(v.number(), v.integer(), v.minValue(0)),
  name: v.pipe(v.string(), v.maxLength(120)),
})
export type PlanConfiguration = v.InferOutput<typeof PlanConfigurationSchema>

export const AlphaCodeSchema = v.pipe(
  v.string('The alpha code is required.'),
  v.trim(),
  v.toUpperCase(),
  v.regex(/^[A-Z]{2,4}$/, 'The alpha code must be 2 to 4 letters.'),
)

export const TagConfigurationSchema = v.pipe(
  v.strictObject({
    name: requiredText(60, 'The tag name is required.', 'The tag name is too long.'),
    alphaCode: AlphaCodeSchema,
    startNumber: v.pipe(
      v.number('The starting number is required.'),
      v.integer('The starting number must be a whole number.'),
      v.minValue(1, 'The starting number must be at least 1.'),
      v.maxValue(99_999, 'The starting number must be at most 99999.'),
    ),
    foregroundColor: ColorSchema,
    backgroundColor: ColorSchema,
    shippingAddress: v.optional(AddressSchema),
    /**
     * A reprint of this existing tag (same code, new QR) rather than new numbers: set only by
     * `POST /tags/{id}/replacements`, refused in `POST /cart/items`.
     */
    replacesTagId: v.optional(IdSchema),
  }),
  v.check(
    (config) => qrColorsReadable(config.foregroundColor, config.backgroundColor),
    `Scanners cannot read this QR code: use a dark colour on a light background, with a contrast of at least ${MIN_QR_CONTRAST}:1.`,
  ),
)
export type TagConfiguration = v.InferOutput<typeof TagConfigurationSchema>

export const TagQuantitySchema = v.pipe(
  v.number('The quantity is required.'),
  v.integer('The quantity must be a whole number.'),
  v.minValue(TAG_QUANTITY_MIN, `At least ${TAG_QUANTITY_MIN} tags per order.`),
  v.maxValue(TAG_QUANTITY_MAX, `At most ${TAG_QUANTITY_MAX} tags per order.`),
)

/** `POST /cart/items`: the server recomputes the unit amount and refuses one that differs (never trusts it). */
export const CartItemCreateSchema = v.variant('productType', [
  v.strictObject({
    productType: v.literal('TAG'),
    /** The tag product (`tag-standard`). */
    productRefId: v.pipe(v.string(), v.nonEmpty()),
    quantity: TagQuantitySchema,
    unitAmountInCents: v.pipe(v.number(), v.integer(), v.minValue(0)),
    configuration: TagConfigurationSchema,
  }),
  v.strictObject({
    productType: v.literal('PLAN'),
    /** The plan id. */
    productRefId: IdSchema,
    quantity: v.literal(1, 'A plan is bought once.'),
    unitAmountInCents: v.pipe(v.number(), v.integer(), v.minValue(0)),
    configuration: PlanConfigurationSchema,
  }),
])
export type CartItemCreate = v.InferInput<typeof CartItemCreateSchema>

/** The cart line of a plan as `GET /api/plans` lists it (one plan per cart: a new one replaces the old). */
export const planCartItem = (plan: Plan): CartItemCreate => ({
  productType: 'PLAN',
  productRefId: plan.id,
  quantity: 1,
  unitAmountInCents: plan.amountInCents,
  configuration: {
    billingCycle: plan.recurringInterval === 'year' ? 'YEARLY' : 'MONTHLY',
    recurringInterval: plan.recurringInterval,
    recurringIntervalCount: plan.recurringIntervalCount,
    quantity: plan.quantity,
    name: plan.name,
  },
})

/** A run of consecutive tag codes, `DEM-00061` to `DEM-00160` (`count` codes). */
const TagCodeRangeSchema = v.object({ first: v.string(), last: v.string(), count: v.number() })
export type TagCodeRange = v.InferOutput<typeof TagCodeRangeSchema>

const wholeNumberText = (name: string, min: number, max: number) =>
  v.pipe(
    v.string(),
    v.regex(/^\d{1,6}$/, `${name} must be a whole number.`),
    v.metadata({ pattern: '^[0-9]{1,6}$', description: `A whole number from ${min} to ${max}.` }),
    v.transform(Number),
    v.minValue(min, `${name} must be at least ${min}.`),
    v.maxValue(max, `${name} must be at most ${max}.`),
  )

/** `GET /cart/tag-numbers`: the numbers a new TAG line would really carry, after the cart's own lines. */
export const TagNumberingQuerySchema = v.object({
  alphaCode: v.optional(AlphaCodeSchema),
  startNumber: v.optional(wholeNumberText('startNumber', 1, 99_999)),
  quantity: v.optional(wholeNumberText('quantity', 1, TAG_QUANTITY_MAX)),
})
export const TagNumberingSchema = v.object({
  /** The alpha code asked for, else the organization's latest one, else one made from its name. */
  alphaCode: v.string(),
  /** The first number after every tag of that code and every line of the cart (where a new series starts). */
  nextNumber: v.number(),
  /** The codes the line would be printed with if the cart were paid now (empty: no free numbers left). */
  codes: v.array(TagCodeRangeSchema),
})
export type TagNumbering = v.InferOutput<typeof TagNumberingSchema>

const CartItemSchema = v.object({
  id: v.string(),
  productType: v.picklist(PRODUCT_TYPES),
  productRefId: v.string(),
  quantity: v.number(),
  unitAmountInCents: v.number(),
  lineTotalInCents: v.number(),
  configuration: v.union([TagConfigurationSchema, PlanConfigurationSchema]),
  /** A TAG line's codes if the cart were paid now (a taken range continues after the last number). */
  codes: v.optional(v.array(TagCodeRangeSchema)),
})
export type CartItem = v.InferOutput<typeof CartItemSchema>

const TotalsSchema = v.object({
  subtotalInCents: v.number(),
  discountInCents: v.number(),
  shippingInCents: v.number(),
  freeShipping: v.boolean(),
  taxInCents: v.number(),
  totalInCents: v.number(),
})

export const CartSchema = v.object({
  organizationId: v.string(),
  /** Ordered plan, tag, accessory, other. */
  items: v.array(CartItemSchema),
  itemCount: v.number(),
  totals: TotalsSchema,
})
export type Cart = v.InferOutput<typeof CartSchema>

export const ORDER_STATUSES = [
  'CREATED',
  'PAID',
  'EXPIRED',
  'UNPAID',
  'CONFIRMED',
  'PRODUCING',
  'SHIPPED',
  'DELIVERED',
] as const
const OrderStatusSchema = v.picklist(ORDER_STATUSES)
export type OrderStatus = (typeof ORDER_STATUSES)[number]

/** The only moves allowed; any other answers 409 with the allowed next states. */
export const ORDER_TRANSITIONS: Record<OrderStatus, readonly OrderStatus[]> = {
  CREATED: ['PAID', 'UNPAID', 'EXPIRED'],
  UNPAID: ['PAID', 'EXPIRED'],
  EXPIRED: ['PAID', 'UNPAID'],
  PAID: ['CONFIRMED'],
  CONFIRMED: ['PRODUCING'],
  PRODUCING: ['SHIPPED'],
  SHIPPED: ['DELIVERED'],
  DELIVERED: [],
}

/** The actions on an order, each a `POST /orders/{id}/<action>`. */
export const ORDER_ACTIONS = [
  'sessions',
  'checks',
  'confirmations',
  'productions',
  'shipments',
  'deliveries',
  'tags-exports',
] as const
export type OrderAction = (typeof ORDER_ACTIONS)[number]

const OrderLineSchema = v.object({
  id: v.string(),
  productType: v.picklist(PRODUCT_TYPES),
  productRefId: v.string(),
  quantity: v.number(),
  unitAmountInCents: v.number(),
  lineTotalInCents: v.number(),
  configuration: v.union([TagConfigurationSchema, PlanConfigurationSchema]),
  /** A TAG line's codes: those it will be printed with if paid now (in the order's own view, before payment). */
  codes: v.optional(v.array(TagCodeRangeSchema)),
})

export const OrderSchema = v.object({
  id: v.string(),
  /** Short human reference, e.g. `TR-2026-000123`. */
  reference: v.string(),
  status: OrderStatusSchema,
  organization: v.object({ id: v.string(), name: v.string() }),
  /** Number of tags ordered (0 for a plan-only order). */
  quantity: v.number(),
  createdAt: v.string(),
  totals: TotalsSchema,
  lines: v.array(OrderLineSchema),
  shippingAddress: v.nullable(AddressSchema),
  /** What the caller may do now (e.g. `sessions`, `confirmations`), computed from status and role. */
  actions: v.array(v.picklist(ORDER_ACTIONS)),
})
export type Order = v.InferOutput<typeof OrderSchema>
export const OrderPageSchema = pageOf(OrderSchema)
export const OrderListQuerySchema = v.object({
  ...PageQuerySchema.entries,
  status: v.optional(OrderStatusSchema),
})

/** `GET /orders/{id}/details`: the order with its tags (once paid). */
export const OrderDetailsSchema = v.object({
  order: OrderSchema,
  tags: v.array(
    v.pick(TagSchema, ['id', 'publicId', 'code', 'name', 'foregroundColor', 'backgroundColor', 'url']),
  ),
})
export type OrderDetails = v.InferOutput<typeof OrderDetailsSchema>

/** `POST /orders` and `POST /cart/checkout`: the order made from the selected organization's cart. */
export const CheckoutSchema = v.strictObject({ shippingAddress: v.optional(AddressSchema) })

/** `POST /orders/{id}/sessions`: where to send the payer (the local sandbox page or Stripe Checkout). */
export const PaymentSessionSchema = v.object({ url: v.string(), provider: v.picklist(['local', 'stripe']) })

const SubscriptionSchema = v.object({
  planId: v.string(),
  planName: v.string(),
  billingCycle: BillingCycleSchema,
  status: v.picklist(['ACTIVE', 'EXPIRED']),
  currentPeriodStart: v.string(),
  currentPeriodEnd: v.string(),
  transfersPerMonth: v.number(),
  transfersUsedThisMonth: v.number(),
  /** When this month's allowance renews (start of next calendar month, organization time zone). */
  allowanceRenewsAt: v.string(),
})
export type Subscription = v.InferOutput<typeof SubscriptionSchema>
/** `GET /organizations/{id}/subscription`: null when the organization has none. */
export const OrganizationSubscriptionSchema = v.object({ subscription: v.nullable(SubscriptionSchema) })

export const TAG_PRODUCT_ID = 'tag-standard'
export const TAG_QUANTITY_BOUNDS = { min: TAG_QUANTITY_MIN, max: TAG_QUANTITY_MAX } as const

/** Statuses in which an order waits for its payment: a (new) payment session may be opened, `checks` apply. */
export const PAYMENT_PENDING_STATUSES = [
  'CREATED',
  'UNPAID',
  'EXPIRED',
] as const satisfies readonly OrderStatus[]

/** Tag numbers are printed with 5 digits: a TAG line's numbers must end at 99999 at most. */
export const TAG_NUMBER_MAX = 99_999

/** Whether `quantity` tags numbered from `startNumber` fit below `TAG_NUMBER_MAX` (the server refuses others). */
export function tagNumbersFit(startNumber: number, quantity: number): boolean {
  return startNumber + quantity - 1 <= TAG_NUMBER_MAX
}
