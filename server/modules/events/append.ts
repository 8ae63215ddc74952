import { sql } from 'drizzle-orm'
import type { EventKind } from '../../../contract/events.ts'
import type { WebhookEventType } from '../../../contract/webhooks.ts'
import type { Db } from '../../db/client.ts'
import { enqueueWebhookEvent } from '../webhooks/enqueue.ts'

export type NewEvent = {
  organizationId: string
  kind: EventKind
  actorId: string | null
  serverTime: Date
  clientTime?: Date | null
  fromQueue?: boolean
  keychainIds?: string[]
  tagIds?: string[]
  transferIds?: string[]
  payload?: Record<string, unknown>
}

/** A uuid[] literal as one parameter (a JavaScript array would become one parameter per id). */
const uuidArray = (ids: string[] = []) => sql`${`{${[...new Set(ids)].join(',')}}`}::uuid[]`

/**
 * Appends an event to its organization's log, numbered after the last one and chained to it by its hash
 * (`organization_event_digest`: the previous hash and this event's fields), in the caller's transaction
 * (`append_organization_event`, migration 0015: it reads the previous hash once the counter row is locked). The
 * counter row stays locked until that transaction ends, so events of one organization commit in number order
 * and a reader that has seen N has seen everything before it. Call it last in the transaction: the lock is
 * then held for the commit only, and every transaction takes it after its other locks (no deadlock).
 */
export async function appendEvent(tx: Db, event: NewEvent): Promise<void> {
  // Webhook deliveries of the kinds they carry, in this transaction, before the counter's lock is taken.
  await webhooksOfEvent(tx, event)
  await tx.execute(sql`select append_organization_event(
    ${event.organizationId}::uuid, ${event.kind}::text, ${event.actorId}::uuid,
    ${event.clientTime?.toISOString() ?? null}::timestamptz, ${event.serverTime.toISOString()}::timestamptz,
    ${event.fromQueue ?? false}::boolean, ${uuidArray(event.keychainIds)}, ${uuidArray(event.tagIds)},
    ${uuidArray(event.transferIds)}, ${JSON.stringify(event.payload ?? {})}::jsonb)`)
}

/** The event log's kinds that are webhook events of the same name. */
const FROM_EVENT_LOG: ReadonlySet<EventKind & WebhookEventType> = new Set([
  'transfer.authorized',
  'transfer.picked_up',
  'transfer.returned',
  'found_report.received',
  'stocktake.closed',
  'keychain.handed_over',
] as const)

/**
 * Called by `appendEvent` for every event, in its transaction: the kinds webhooks carry become deliveries;
 * any other kind (scans…) costs nothing, not even a query. The data is the event's ids and payload.
 */
async function webhooksOfEvent(tx: Db, event: NewEvent): Promise<void> {
  if (!FROM_EVENT_LOG.has(event.kind as EventKind & WebhookEventType)) return
  await enqueueWebhookEvent(tx, {
    organizationId: event.organizationId,
    type: event.kind as WebhookEventType,
    occurredAt: event.serverTime,
    data: {
      actorId: event.actorId,
      keychainIds: event.keychainIds ?? [],
      tagIds: event.tagIds ?? [],
      transferIds: event.transferIds ?? [],
      ...(event.clientTime ? { clientTime: event.clientTime.toISOString() } : {}),
      ...(event.fromQueue ? { fromQueue: true } : {}),
      ...event.payload,
    },
  })
}
