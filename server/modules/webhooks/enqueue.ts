import { createHash, randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import type { WebhookEventType } from '../../../contract/webhooks.ts'
import type { Db } from '../../db/client.ts'

export const WEBHOOK_JOB = 'webhook.delivery'

export type WebhookEvent = {
  organizationId: string
  type: WebhookEventType
  occurredAt: Date
  data: Record<string, unknown>
  /** Given when the producer may run twice for one event (a retried job): the second finds it delivered. */
  eventId?: string
}

/** The body posted to every endpoint of the event, the same bytes at every attempt. */
export function webhookBody(event: Required<Omit<WebhookEvent, 'type'>> & { type: string }): string {
  return JSON.stringify({
    id: event.eventId,
    type: event.type,
    createdAt: event.occurredAt.toISOString(),
    organizationId: event.organizationId,
    data: event.data,
  })
}

/** A UUID fixed by its name, for events a timed job finds (one overdue per transfer and to-date). */
export function namedEventId(name: string): string {
  const hex = createHash('sha256').update(name).digest('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`
}

/**
 * Writes one delivery and its job per enabled endpoint of the organization subscribed to the event, in the
 * caller's transaction: they exist exactly when the change does. One statement; none when no endpoint wants
 * it. An event id written before for an endpoint is skipped (its unique key), so a producer run twice sends
 * nothing twice.
 */
export async function enqueueWebhookEvent(tx: Db, event: WebhookEvent): Promise<void> {
  const eventId = event.eventId ?? randomUUID()
  const body = webhookBody({ ...event, eventId })
  const now = event.occurredAt.toISOString()
  await tx.execute(sql`
    with wanted as (
      select id from webhook_endpoints
      where organization_id = ${event.organizationId}::uuid and enabled and ${event.type}::text = any(event_types)
    ), delivery as (
      insert into webhook_deliveries (endpoint_id, organization_id, event_id, event_type, body, created_at)
      select id, ${event.organizationId}::uuid, ${eventId}::uuid, ${event.type}::text, ${body}::text, ${now}::timestamptz
      from wanted
      on conflict (endpoint_id, event_id) do nothing
      returning id
    )
    insert into jobs (kind, payload, run_at, created_at, organization_id, dedupe_key)
    select ${WEBHOOK_JOB}, jsonb_build_object('deliveryId', delivery.id), ${now}::timestamptz,
      ${now}::timestamptz, ${event.organizationId}::uuid, 'webhook:' || delivery.id
    from delivery`)
}
