import * as v from 'valibot'
import { IdSchema, optionalText, withoutControlCharacters } from './common.ts'

/**
 * What an organization's webhooks may subscribe to (issue 20). Each is posted as JSON
 * `{ id, type, createdAt, organizationId, data }`, signed (see `WEBHOOK_SIGNATURE_HEADER`).
 */
export const WEBHOOK_EVENT_TYPES = [
  'transfer.authorized',
  'transfer.picked_up',
  'transfer.returned',
  'transfer.overdue',
  'found_report.received',
  'order.status_changed',
  'stocktake.closed',
  'keychain.handed_over',
] as const
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number]
/** The "send test" button's event: sent to one endpoint on demand, never subscribed to. */
export const WEBHOOK_TEST_EVENT = 'webhook.test'

/**
 * `Trousseau-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the endpoint's
 * secret>` (the shape of Stripe's). Receivers recompute it over the raw body, compare in constant time and
 * refuse a `t` older than a few minutes (a replayed request).
 */
export const WEBHOOK_SIGNATURE_HEADER = 'Trousseau-Signature'
export const WEBHOOK_EVENT_HEADER = 'Trousseau-Event'
export const WEBHOOK_ID_HEADER = 'Trousseau-Event-Id'

const WEBHOOK_URL_MAX_LENGTH = 2000
/** Webhooks an organization may have (409 `webhook_limit_reached` beyond): each one is a queue of sends. */
export const WEBHOOK_ENDPOINTS_MAX = 10
/** Test sends an organization may ask for in a minute, whatever the endpoint (429 `rate_limited` beyond). */
export const WEBHOOK_TESTS_PER_MINUTE = 10
const WEBHOOK_DESCRIPTION_MAX_LENGTH = 200

const URL_MESSAGE = 'Enter an https:// address (http:// only for this machine: localhost, 127.0.0.1, [::1]).'
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]'])

/** https, or http to a loopback host (a receiver on the same machine while developing); no credentials. */
export function isWebhookUrl(value: string): boolean {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return false
  }
  if (url.username || url.password) return false
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname))
}

const WebhookUrlSchema = v.pipe(
  v.string(URL_MESSAGE),
  v.trim(),
  v.nonEmpty(URL_MESSAGE),
  v.maxLength(WEBHOOK_URL_MAX_LENGTH, 'This address is too long.'),
  withoutControlCharacters,
  v.check(isWebhookUrl, URL_MESSAGE),
)

const EventTypesSchema = v.pipe(
  v.array(v.picklist(WEBHOOK_EVENT_TYPES, 'Unknown event type.'), 'Choose the events to send.'),
  v.minLength(1, 'Choose at least one event.'),
  v.transform((types) => [...new Set(types)]),
)

const DescriptionSchema = optionalText(WEBHOOK_DESCRIPTION_MAX_LENGTH, 'The description is too long.')

export const WebhookCreateSchema = v.object({
  url: WebhookUrlSchema,
  eventTypes: EventTypesSchema,
  description: DescriptionSchema,
})
export type WebhookCreate = v.InferInput<typeof WebhookCreateSchema>

export const WebhookUpdateSchema = v.pipe(
  v.object({
    url: v.optional(WebhookUrlSchema),
    eventTypes: v.optional(EventTypesSchema),
    description: v.optional(DescriptionSchema),
    enabled: v.optional(v.boolean('enabled must be true or false.')),
  }),
  v.check((body) => Object.values(body).some((value) => value !== undefined), 'Nothing to change.'),
)
export type WebhookUpdate = v.InferInput<typeof WebhookUpdateSchema>

export const WebhookParamsSchema = v.object({ id: IdSchema })

export const WebhookEndpointSchema = v.object({
  id: v.string(),
  url: v.string(),
  description: v.string(),
  eventTypes: v.array(v.picklist(WEBHOOK_EVENT_TYPES)),
  enabled: v.boolean(),
  /** The secret's last characters (`…a1b2`): the whole secret is shown once, at creation or rotation. */
  secretHint: v.string(),
  createdAt: v.string(),
  updatedAt: v.string(),
})
export type WebhookEndpoint = v.InferOutput<typeof WebhookEndpointSchema>
export const WebhookEndpointListSchema = v.object({ data: v.array(WebhookEndpointSchema) })

/** Creation and rotation answer the secret, once: it is never readable again. */
export const WebhookWithSecretSchema = v.object({
  endpoint: WebhookEndpointSchema,
  secret: v.string(),
})
export type WebhookWithSecret = v.InferOutput<typeof WebhookWithSecretSchema>

const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number]

const WebhookAttemptSchema = v.object({
  attempt: v.number(),
  startedAt: v.string(),
  durationMs: v.number(),
  /** The receiver's HTTP status; null when none came (timeout, refused connection, refused target). */
  statusCode: v.nullable(v.number()),
  error: v.nullable(v.string()),
  /** When the next attempt is due; null after the last one or a success. */
  nextAttemptAt: v.nullable(v.string()),
})
export type WebhookAttempt = v.InferOutput<typeof WebhookAttemptSchema>

export const WebhookDeliverySchema = v.object({
  id: v.string(),
  eventId: v.string(),
  eventType: v.string(),
  status: v.picklist(WEBHOOK_DELIVERY_STATUSES),
  createdAt: v.string(),
  deliveredAt: v.nullable(v.string()),
  nextAttemptAt: v.nullable(v.string()),
  attempts: v.array(WebhookAttemptSchema),
})
export type WebhookDelivery = v.InferOutput<typeof WebhookDeliverySchema>
/** The endpoint's most recent deliveries (`WEBHOOK_LOG_SIZE`), newest first. */
export const WebhookDeliveryListSchema = v.object({ data: v.array(WebhookDeliverySchema) })
export const WEBHOOK_LOG_SIZE = 50
