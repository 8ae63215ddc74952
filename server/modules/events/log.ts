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
 * Appends an event to its organization's log, numbered after the last one, in the caller's transaction. The
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
    )
    insert into organization_events
      (organization_id, seq, kind, actor_id, client_time, server_time, from_queue,
       keychain_ids, tag_ids, transfer_ids, payload)
    select ${event.organizationId}, next.last_seq, ${event.kind}, ${event.actorId},
      ${event.clientTime?.toISOString() ?? null}::timestamptz, ${event.serverTime.toISOString()}::timestamptz,
      ${event.fromQueue ?? false}, ${uuidArray(event.keychainIds)}, ${uuidArray(event.tagIds)},
      ${uuidArray(event.transferIds)}, ${JSON.stringify(event.payload ?? {})}::jsonb
    from next`)
}
