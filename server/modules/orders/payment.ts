import { and, eq, inArray, isNull } from 'drizzle-orm'
import type * as v from 'valibot'
import {
  type Order,
  PAYMENT_PENDING_STATUSES,
  type PaymentSessionSchema,
} from '../../../contract/commerce.ts'
import { ErrorCode } from '../../../contract/errors.ts'
import { isLocale, type Locale } from '../../../contract/locale.ts'
import type { Db } from '../../db/client.ts'
import { type OrderRow, orders, users } from '../../db/schema.ts'
import type { AppDeps } from '../../deps.ts'
import { ApiError } from '../../http/errors.ts'
import type { PaymentProvider, SessionStatus } from '../payments/provider.ts'
import { paymentProvider } from '../payments/providers.ts'
import { PRICES } from '../prices/prices.ts'
import { isPaid, isPaymentPending, type OrderCaller } from './actions.ts'
import { fulfilPaidOrder } from './fulfilment.ts'
import { allowedNextStatuses, invalidTransition, moveOrder } from './transitions.ts'
import { findVisibleOrder, orderView, toOrders } from './view.ts'

type Deps = Pick<AppDeps, 'config' | 'database' | 'clock' | 'logger' | 'jobs'>

const TARGET = { paid: 'PAID', unpaid: 'UNPAID', expired: 'EXPIRED' } as const

/**
 * Applies a provider's word on a session to its order: the one code path of `checks`, the sandbox page and
 * the Stripe webhook. `paid` moves a pending order to PAID (creating its tags and subscription in the same
 * transaction), whichever of its sessions was paid; `unpaid` / `expired` count only for the order's current
 * session (a stale tab's expiry does not touch a fresh attempt). Anything else (already there, already paid,
 * lost a race to another path) changes nothing. Answers whether the order moved.
 */
export async function applySessionStatus(
  db: Db,
  input: {
    orderId: string
    sessionId: string
    status: SessionStatus
    now: Date
    logger?: Pick<AppDeps['logger'], 'warn'> | undefined
  },
): Promise<boolean> {
  if (input.status === 'open') return false
  const target = TARGET[input.status]
  const [order] = await db.select().from(orders).where(eq(orders.id, input.orderId))
  if (!order) return false
  if (target === 'PAID' && isPaid(order.status) && order.paymentSessionId !== input.sessionId) {
    // Another session of this order was paid already: the payer was charged twice, someone must refund.
    input.logger?.warn(
      { orderId: order.id, sessionId: input.sessionId, paidSessionId: order.paymentSessionId },
      'payment received for an order already paid: refund needed',
    )
    return false
  }
  if (!isPaymentPending(order.status) || order.status === target) return false
  if (target !== 'PAID' && order.paymentSessionId !== input.sessionId) return false
  try {
    await moveOrder(
      db,
      { orderId: order.id, to: target, now: input.now },
      target === 'PAID'
        ? async (tx, paid) => {
            // The order names the session that paid it (an older one may have been paid).
            if (paid.paymentSessionId !== input.sessionId) {
              await tx.update(orders).set({ paymentSessionId: input.sessionId }).where(eq(orders.id, paid.id))
            }
            await fulfilPaidOrder(tx, paid, input.now)
          }
        : undefined,
    )
    return true
  } catch (error) {
    if (error instanceof ApiError && error.code === ErrorCode.invalidTransition) return false
    throw error
  }
}

/** The language of the person who placed the order (French by default). */
export async function orderLocale(db: Db, orderId: string): Promise<Locale> {
  const [row] = await db
    .select({ locale: users.locale })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.createdByUserId))
    .where(eq(orders.id, orderId))
  return row && isLocale(row.locale) ? row.locale : 'fr'
}

/** Provider failures (network, outage) are a 503 the payer can retry, never a 500. */
async function askProvider<T>(deps: Deps, call: () => Promise<T>): Promise<T> {
  try {
    return await call()
  } catch (error) {
    if (error instanceof ApiError) throw error
    deps.logger.error({ err: error }, 'payment provider call failed')
    throw new ApiError(503, ErrorCode.unavailable, 'The payment service cannot be reached: please try again.')
  }
}

async function providerOf(deps: Deps, name: OrderRow['paymentProvider']): Promise<PaymentProvider> {
  const provider = await paymentProvider(deps, name ?? undefined)
  if (!provider) {
    throw new ApiError(503, ErrorCode.unavailable, `The ${name} payment provider is not configured.`)
  }
  return provider
}

/**
 * `POST /orders/{id}/sessions`: where to send the payer. An order whose session is still open with its
 * provider gets that one back, whatever its status (a double click, or a retry after UNPAID / EXPIRED, opens
 * no second checkout); otherwise the previous session is expired with its provider (so it can never be paid
 * alongside the new one) and a new session is opened with PAYMENT_PROVIDER and recorded on the order, unless
 * the order stopped waiting for payment meanwhile. Only members of the order's organization open sessions:
 * the caller is never treated as an operator here.
 */
export async function startPaymentSession(
  deps: Deps,
  id: string,
  member: OrderCaller,
): Promise<v.InferOutput<typeof PaymentSessionSchema>> {
  const { db } = deps.database
  const caller = { ...member, operator: false }
  let { order, organizationName } = await findVisibleOrder(db, id, caller)
  if (order.paymentSessionId && order.paymentProvider && isPaymentPending(order.status)) {
    const previous = await providerOf(deps, order.paymentProvider)
    const previousId = order.paymentSessionId
    const status = await askProvider(deps, () => previous.retrieve(previousId))
    if (status === 'open' && order.paymentSessionUrl) {
      return { url: order.paymentSessionUrl, provider: order.paymentProvider }
    }
    if (status === 'open') await askProvider(deps, () => previous.expire(previousId))
    await applySessionStatus(db, {
      orderId: id,
      sessionId: previousId,
      status,
      now: deps.clock.now(),
      logger: deps.logger,
    })
    ;({ order, organizationName } = await findVisibleOrder(db, id, caller))
  }
  if (!isPaymentPending(order.status)) {
    throw invalidTransition(
      order.status,
      null,
      allowedNextStatuses(order),
      `An order ${order.status} is paid already.`,
    )
  }
  const provider = await providerOf(deps, deps.config.paymentProvider)
  const [view] = await toOrders(db, [{ order, organizationName }], caller)
  const locale = await orderLocale(db, order.id)
  const session = await askProvider(deps, () =>
    provider.createSession({
      ...(view as Order),
      locale,
      organizationName,
      vatRatePercent: PRICES.vatRatePercent,
    }),
  )
  const [recorded] = await db
    .update(orders)
    .set({
      paymentProvider: provider.name,
      paymentSessionId: session.sessionId,
      paymentSessionUrl: session.url,
      updatedAt: deps.clock.now(),
    })
    .where(
      and(
        eq(orders.id, id),
        inArray(orders.status, [...PAYMENT_PENDING_STATUSES]),
        order.paymentSessionId
          ? eq(orders.paymentSessionId, order.paymentSessionId)
          : isNull(orders.paymentSessionId),
      ),
    )
    .returning({ id: orders.id })
  if (!recorded) {
    await provider.expire(session.sessionId).catch(() => {})
    throw new ApiError(409, ErrorCode.conflict, 'The order changed meanwhile: please try again.')
  }
  return { url: session.url, provider: provider.name }
}

/**
 * `POST /orders/{id}/checks`: asks the provider that opened the order's session for the truth and applies
 * it. An order past payment is answered as it is, without asking.
 */
export async function checkPayment(deps: Deps, id: string, caller: OrderCaller): Promise<Order> {
  const { db } = deps.database
  const { order } = await findVisibleOrder(db, id, caller)
  if (isPaymentPending(order.status)) {
    if (!order.paymentSessionId || !order.paymentProvider) {
      throw new ApiError(409, ErrorCode.conflict, 'No payment was started for this order.')
    }
    const provider = await providerOf(deps, order.paymentProvider)
    const status = await askProvider(deps, () => provider.retrieve(order.paymentSessionId!))
    const moved = await applySessionStatus(db, {
      orderId: id,
      sessionId: order.paymentSessionId,
      status,
      now: deps.clock.now(),
      logger: deps.logger,
    })
    if (moved) deps.jobs.nudge()
  }
  return orderView(db, id, caller)
}
