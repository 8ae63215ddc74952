import { sql } from 'drizzle-orm'
import type { EventKind } from '../../../contract/events.ts'
import type { Db } from '../../db/client.ts'

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
 * (`organization_event_digest`: the previous hash and this event's fields), in the caller's transaction. The
 * counter row stays locked until that transaction ends, so events of one organization commit in number order
 * and a reader that has seen N has seen everything before it. Call it last in the transaction: the lock is
 * then held for the commit only, and every transaction takes it after its other locks (no deadlock).
 */
export async function appendEvent(tx: Db, event: NewEvent): Promise<void> {
  await tx.execute(sql`
    with next as (
      insert into organization_event_counters (organization_id, last_seq)
      values (${event.organizationId}, 1)
      on conflict (organization_id) do update set last_seq = organization_event_counters.last_seq + 1
      returning last_seq
    ),
    fields as (
      select ${event.organizationId}::uuid as organization_id, next.last_seq as seq, ${event.kind}::text as kind,
        ${event.actorId}::uuid as actor_id, ${event.clientTime?.toISOString() ?? null}::timestamptz as client_time,
        ${event.serverTime.toISOString()}::timestamptz as server_time, ${event.fromQueue ?? false}::boolean as from_queue,
        ${uuidArray(event.keychainIds)} as keychain_ids, ${uuidArray(event.tagIds)} as tag_ids,
        ${uuidArray(event.transferIds)} as transfer_ids, ${JSON.stringify(event.payload ?? {})}::jsonb as payload,
        -- The previous event of the organization: committed (or ours), since the counter row serializes appends.
        coalesce((select hash from organization_events previous
          where previous.organization_id = ${event.organizationId} and previous.seq = next.last_seq - 1), '') as prev
      from next
    )
    insert into organization_events
      (organization_id, seq, kind, actor_id, client_time, server_time, from_queue,
       keychain_ids, tag_ids, transfer_ids, payload, hash)
    select organization_id, seq, kind, actor_id, client_time, server_time, from_queue,
      keychain_ids, tag_ids, transfer_ids, payload,
      organization_event_digest(prev, organization_id, seq, kind, actor_id, client_time, server_time, from_queue,
        keychain_ids, tag_ids, transfer_ids, payload)
    from fields`)
}
