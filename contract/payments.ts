import * as v from 'valibot'

// The sandbox checkout (PAYMENT_PROVIDER=local) and the Stripe webhook: server-to-browser pages and a provider's
// calls, none made by the SPA.

/** The sandbox session id: 16 random bytes, base64url. */
export const LocalSessionParamsSchema = v.object({
  sessionId: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{22}$/, 'Malformed payment session id.')),
})

/** The session and what the payer chose on the sandbox page (the server's `LocalOutcome`). */
export const LocalOutcomeParamsSchema = v.object({
  ...LocalSessionParamsSchema.entries,
  outcome: v.picklist(['pay', 'fail', 'cancel']),
})

/** `?lang=fr|en`: the sandbox page's language (else the order's). */
export const LocalLangQuerySchema = v.object({ lang: v.optional(v.string()) })

export const WebhookAnswerSchema = v.object({
  received: v.literal(true),
  duplicate: v.optional(v.literal(true)),
})
