import {
  LocalLangQuerySchema,
  LocalOutcomeParamsSchema,
  LocalSessionParamsSchema,
  WebhookAnswerSchema,
} from '../payments.ts'
import { endpoint } from './endpoint.ts'

/** The sandbox checkout (an HTML page and its form posts) and the Stripe webhook: no SPA calls them. */
export const paymentEndpoints = {
  /** An HTML page: no answer schema. */
  localPage: endpoint({
    method: 'get',
    path: '/payments/local/:sessionId',
    params: LocalSessionParamsSchema,
    query: LocalLangQuerySchema,
  }),
  /** A redirect (303) to the order result page: no answer schema. */
  localOutcome: endpoint({
    method: 'post',
    path: '/payments/local/:sessionId/:outcome',
    params: LocalOutcomeParamsSchema,
    query: LocalLangQuerySchema,
  }),
  stripeWebhook: endpoint({
    method: 'post',
    path: '/payments/stripe/webhook',
    response: WebhookAnswerSchema,
  }),
}
