import { sql } from 'drizzle-orm'
import type { ChainCheck } from '../../../contract/activity.ts'
import type { Db } from '../../db/client.ts'

type Row = {
  entries: number
  broken_at: string | number | null
  last_seq: string | number | null
  max_seq: string | number | null
}

/**
 * Recomputes every hash of the organization's log from its fields and the previous stored hash, in one
 * statement: the first entry whose hash differs, or whose number does not follow the previous one (a row
 * deleted), breaks the chain; so do entries missing at the end (fewer than the counter has handed out).
 */
export async function verifyChain(db: Db, organizationId: string): Promise<ChainCheck> {
  const result = (await db.execute(sql`
    with checked as (
      select seq, hash,
        organization_event_digest(coalesce(lag(hash) over w, ''), organization_id, seq, kind, actor_id,
          client_time, server_time, from_queue, keychain_ids, tag_ids, transfer_ids, payload) as expected,
        coalesce(lag(seq) over w, 0) as previous_seq
      from organization_events
      where organization_id = ${organizationId}
      window w as (order by seq)
    )
    select
      (select count(*) from checked)::int as entries,
      (select min(seq) from checked where hash <> expected or previous_seq <> seq - 1) as broken_at,
      (select last_seq from organization_event_counters where organization_id = ${organizationId}) as last_seq,
      (select max(seq) from checked) as max_seq`)) as unknown as { rows: Row[] }
  const [row] = result.rows
  // Stryker disable next-line OptionalChaining: a select of aggregates and scalar subqueries answers one row
  const entries = row?.entries ?? 0
  // Stryker disable next-line OptionalChaining: a select of aggregates and scalar subqueries answers one row
  const maxSeq = Number(row?.max_seq ?? 0)
  // Stryker disable next-line OptionalChaining,ConditionalExpression,LogicalOperator: one row, never undefined columns, and Number(null) is 0 too
  const lastSeq = row?.last_seq === null || row?.last_seq === undefined ? 0 : Number(row.last_seq)
  const brokenAt =
    // Stryker disable next-line OptionalChaining: a select of aggregates and scalar subqueries answers one row
    row?.broken_at !== null && row?.broken_at !== undefined
      ? Number(row.broken_at)
      : maxSeq < lastSeq
        ? maxSeq + 1
        : null
  return { entries, valid: brokenAt === null, brokenAt }
}
