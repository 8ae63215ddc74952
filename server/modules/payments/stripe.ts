import Stripe from 'stripe'
import type { Config } from '../../config.ts'
import { lineName, paymentMessages, paymentText } from './messages.ts'
import { orderResultUrl, type PaymentOrder, type PaymentProvider, type SessionStatus } from './provider.ts'

function stripeClient(config: Pick<Config, 'stripeSecretKey' | 'stripeApiBase'>): Stripe {
  if (!config.stripeSecretKey) throw new Error('STRIPE_SECRET_KEY is not set')
  return new Stripe(config.stripeSecretKey, {
    ...(config.stripeApiBase ?? {}),
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
  })
}

/** Stripe's word on a Checkout Session, in the provider's terms. */
function sessionStatus(session: Pick<Stripe.Checkout.Session, 'status' | 'payment_status'>): SessionStatus {
  if (session.payment_status === 'paid' || session.payment_status === 'no_payment_required') return 'paid'
  if (session.status === 'expired') return 'expired'
  // `complete` but unpaid: a delayed payment method (SEPA debit…) is still on its way.
  return 'open'
}

/** The order's lines, shipping and VAT as Checkout line items (EUR cents): they add up to the order total. */
function checkoutLineItems(order: PaymentOrder): Stripe.Checkout.SessionCreateParams.LineItem[] {
  const item = (name: string, unitAmount: number, quantity: number) => ({
    quantity,
    price_data: { currency: 'eur', unit_amount: unitAmount, product_data: { name } },
  })
  const items = order.lines.map((line) =>
    item(lineName(order.locale, line), line.unitAmountInCents, line.quantity),
  )
  if (order.totals.shippingInCents > 0) {
    items.push(item(paymentText(order.locale, paymentMessages.shipping), order.totals.shippingInCents, 1))
  }
  if (order.totals.taxInCents > 0) {
    const vat = paymentText(order.locale, paymentMessages.vat, { rate: order.vatRatePercent })
    items.push(item(vat, order.totals.taxInCents, 1))
  }
  return items
}

/**
 * Stripe Checkout Sessions (one-off payments, `mode: payment`) through the official SDK. The order id travels
 * as `client_reference_id` and in the metadata; the webhook and `checks` re-read the session before acting.
 */
export function createStripeProvider(config: Config): PaymentProvider {
  const stripe = stripeClient(config)
  return {
    name: 'stripe',
    async createSession(order) {
      const session = await stripe.checkout.sessions.create({
        mode: 'payment',
        client_reference_id: order.id,
        metadata: { orderId: order.id, reference: order.reference },
        payment_intent_data: { metadata: { orderId: order.id, reference: order.reference } },
        line_items: checkoutLineItems(order),
        locale: order.locale,
        success_url: orderResultUrl(config, order.locale, 'success', order.id),
        cancel_url: orderResultUrl(config, order.locale, 'cancel', order.id),
      })
      if (!session.url) throw new Error('Stripe returned a Checkout Session without a URL')
      return { url: session.url, sessionId: session.id }
    },
    async retrieve(sessionId) {
      return sessionStatus(await stripe.checkout.sessions.retrieve(sessionId))
    },
    async expire(sessionId) {
      const session = await stripe.checkout.sessions.retrieve(sessionId)
      if (session.status === 'open') await stripe.checkout.sessions.expire(sessionId)
    },
  }
}
