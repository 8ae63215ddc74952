import { paymentEndpoints } from '../../../contract/endpoints/payments.ts'
import { isLocale, type Locale } from '../../../contract/locale.ts'
import type { AppDeps } from '../../deps.ts'
import type { ApiRouter } from '../../http/api-router.ts'
import { notFound } from '../../http/errors.ts'
import { findLocalSession, localStatus, recordLocalOutcome } from '../payments/local.ts'
import { sandboxPage } from '../payments/local-page.ts'
import { orderResultUrl } from '../payments/provider.ts'
import { paymentProvider } from '../payments/providers.ts'
import { PRICES } from '../prices/prices.ts'
import { isPaid } from './actions.ts'
import { applySessionStatus, orderLocale } from './payment.ts'
import { handleStripeWebhook } from './stripe-webhook.ts'
import { orderView } from './view.ts'

/** The sandbox checkout (PAYMENT_PROVIDER=local) and the Stripe webhook. */
export function paymentRoutes(api: ApiRouter, deps: AppDeps): void {
  const { db } = deps.database

  /** The session and its order, for the sandbox page; 404 unless the local provider is the one in use. */
  async function sandboxSession(sessionId: string, lang: string | undefined) {
    const session = deps.config.paymentProvider === 'local' ? await findLocalSession(db, sessionId) : null
    if (!session) throw notFound('No such payment session.')
    const order = await orderView(db, session.orderId, { operator: true, scope: null })
    const locale: Locale = isLocale(lang) ? lang : await orderLocale(db, session.orderId)
    return { session, order, locale }
  }

  api.route(
    {
      ...paymentEndpoints.localPage,
      summary:
        'Sandbox checkout page (HTML, PAYMENT_PROVIDER=local): the order and Pay / Fail / Cancel buttons; `?lang=fr|en`',
      access: 'public',
      responses: { 200: { description: 'text/html page' } },
    },
    async (c, { params, query }) => {
      const { session, order, locale } = await sandboxSession(params.sessionId, query.lang)
      const open = localStatus(session, deps.clock.now()) === 'open'
      const outcome = isPaid(order.status) ? 'success' : 'cancel'
      const html = sandboxPage({
        locale,
        sessionId: params.sessionId,
        order,
        vatRatePercent: PRICES.vatRatePercent,
        open,
        resultUrl: orderResultUrl(deps.config, locale, outcome, order.id),
      })
      return c.html(html, 200)
    },
  )

  api.route(
    {
      ...paymentEndpoints.localOutcome,
      summary:
        'Sandbox outcome (a plain form post): records it, applies it to the order like a provider’s answer, and redirects (303) to the order result page',
      access: 'public',
      responses: { 303: { description: 'To /app/order-result/success or /cancel?order=<id>' } },
    },
    async (c, { params, query }) => {
      const { session, locale } = await sandboxSession(params.sessionId, query.lang)
      const now = deps.clock.now()
      await recordLocalOutcome(db, session.id, params.outcome, now)
      const status = await (await paymentProvider(deps, 'local'))!.retrieve(session.id)
      if (
        await applySessionStatus(db, {
          orderId: session.orderId,
          sessionId: session.id,
          status,
          now,
          logger: deps.logger,
        })
      )
        deps.jobs.nudge()
      const order = await orderView(db, session.orderId, { operator: true, scope: null })
      const outcome = isPaid(order.status) ? 'success' : 'cancel'
      return c.redirect(orderResultUrl(deps.config, locale, outcome, order.id), 303)
    },
  )

  api.route(
    {
      ...paymentEndpoints.stripeWebhook,
      summary:
        'Stripe webhook (signed; raw body): Checkout Session completed, async payment succeeded / failed, expired. Each event is applied once',
      access: 'public',
      responses: {
        200: { description: 'Received' },
        400: { description: 'invalid_signature' },
        404: { description: 'Stripe is not the payment provider in use' },
      },
    },
    async (c) => {
      const raw = Buffer.from(await c.req.arrayBuffer())
      return c.json(await handleStripeWebhook(deps, raw, c.req.header('stripe-signature')), 200)
    },
  )
}
