import { and, eq } from 'drizzle-orm'
import type Stripe from 'stripe'
import { ErrorCode } from '../../../contract/errors.ts'
import type { Db } from '../../db/client.ts'
import { paymentEvents } from '../../db/schema.ts'
import type { AppDeps } from '../../deps.ts'
import { ApiError, notFound } from '../../http/errors.ts'
import type { SessionStatus } from '../payments/provider.ts'
import { paymentProvider } from '../payments/providers.ts'
import { applySessionStatus } from './payment.ts'

type Deps = Pick<AppDeps, 'config' | 'database' | 'clock' | 'logger' | 'jobs'>

/** The Checkout Session events acted upon; any other verified event is acknowledged and ignored. */
const HANDLED_EVENTS = [
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'checkout.session.expired',
] as const

/** What the event means once the session was re-read (`status`: Stripe's word now, not the event's). */
function outcome(type: string, status: SessionStatus): SessionStatus {
  if (status === 'paid') return 'paid'
  if (type === 'checkout.session.async_payment_failed') return 'unpaid'
  if (type === 'checkout.session.expired') return 'expired'
  return 'open'
}

/**
 * `POST /api/payments/stripe/webhook`: verifies the signature on the raw body (400 `invalid_signature`),
 * re-reads the session from Stripe, then records the event id and applies the outcome in one transaction, so
 * a repeated event (same id) has no second effect. A failure answers 5xx and Stripe delivers it again.
 */
export async function handleStripeWebhook(
  deps: Deps,
  raw: Buffer,
  signature: string | undefined,
): Promise<{ received: true; duplicate?: true }> {
  const { config } = deps
  if (!config.stripeWebhookSecret || !config.stripeSecretKey) throw notFound('Stripe is not configured.')
  let event: Stripe.Event
  try {
    if (!signature) throw new Error('no Stripe-Signature header')
    // The signature's timestamp is checked against the clock (5 minutes' tolerance); `receivedAt` is in ms.
    const receivedAt = deps.clock.now().getTime()
    // Loaded here, not at start-up: only a deployment that takes Stripe payments pays for the SDK.
    const { default: StripeSdk } = await import('stripe')
    event = StripeSdk.webhooks.constructEvent(
      raw,
      signature,
      config.stripeWebhookSecret,
      undefined,
      undefined,
      receivedAt,
    )
  } catch {
    throw new ApiError(400, ErrorCode.invalidSignature, 'The webhook signature does not verify.')
  }
  const { db } = deps.database
  const handled = (HANDLED_EVENTS as readonly string[]).includes(event.type)
  let session: { id: string; orderId: string } | null = null
  let status: SessionStatus = 'open'
  if (handled) {
    const object = event.data.object as Stripe.Checkout.Session
    const orderId = object.metadata?.orderId ?? object.client_reference_id
    if (orderId && /^[0-9a-f-]{36}$/i.test(orderId)) {
      if (await alreadyProcessed(db, event.id)) return { received: true, duplicate: true }
      session = { id: object.id, orderId }
      status = await (await paymentProvider(deps, 'stripe'))!.retrieve(object.id)
    }
  }
  const now = deps.clock.now()
  const fresh = await db.transaction(async (tx) => {
    const [recorded] = await tx
      .insert(paymentEvents)
      .values({ provider: 'stripe', eventId: event.id, type: event.type, receivedAt: now })
      .onConflictDoNothing()
      .returning({ eventId: paymentEvents.eventId })
    if (!recorded) return false
    if (session) {
      await applySessionStatus(tx, {
        orderId: session.orderId,
        sessionId: session.id,
        status: outcome(event.type, status),
        now,
        logger: deps.logger,
      })
    }
    return true
  })
  if (fresh) deps.jobs.nudge()
  return fresh ? { received: true } : { received: true, duplicate: true }
}

async function alreadyProcessed(db: Db, eventId: string): Promise<boolean> {
  const [row] = await db
    .select({ eventId: paymentEvents.eventId })
    .from(paymentEvents)
    .where(and(eq(paymentEvents.provider, 'stripe'), eq(paymentEvents.eventId, eventId)))
  return row !== undefined
}
