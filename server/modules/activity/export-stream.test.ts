import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { organizationWithAdmin } from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { statementsOf } from '../../../tests/server/statement-count.ts'
import { activityCsv, EXPORT_BATCH } from './list.ts'

const t = setupTestApp()
const BATCHES = 5

/** `count` entries in one statement (the export does not check the chain: a placeholder hash will do). */
async function fillLog(organizationId: string, count: number) {
  await t.db.execute(sql`
    insert into organization_events
      (organization_id, seq, kind, actor_id, client_time, server_time, from_queue, keychain_ids, tag_ids,
       transfer_ids, payload, hash)
    select ${organizationId}, n, 'keychain.updated', null, null, now() - make_interval(secs => ${count} - n),
      false, array[gen_random_uuid()], '{}', '{}',
      jsonb_build_object('name', jsonb_build_object('from', 'A' || n, 'to', 'B' || n)), md5(n::text)
    from generate_series(1, ${count}) as n`)
}

const lines = (chunk: Uint8Array) => chunk.reduce((count, byte) => count + (byte === 10 ? 1 : 0), 0)

describe('the activity export streams (memory stays flat whatever the view)', () => {
  it('reads the log one batch at a time, only as fast as the client takes it', async () => {
    const { organization } = await organizationWithAdmin(t)
    await fillLog(organization.id, BATCHES * EXPORT_BATCH + 10)
    const reader = activityCsv(
      t.db,
      {
        organizationId: organization.id,
        timeZone: 'Europe/Paris',
        query: {},
      },
      { secret: t.deps.secret, now: () => t.clock.now() },
    ).getReader()
    const start = await statementsOf(async () => {
      const first = await reader.read()
      // A client that stops reading: the stream may hold one batch ahead, never the rest of the log.
      await new Promise((resolve) => setTimeout(resolve, 300))
      return lines(first.value!) - 1
    })
    // The log's head first, then each batch.
    expect(start.statements.length).toBeLessThanOrEqual(1 + 2 * 2)
    const rest = await statementsOf(async () => {
      let rows = 0
      let chunks = 0
      for (let next = await reader.read(); !next.done; next = await reader.read()) {
        rows += lines(next.value)
        chunks += 1
      }
      return { rows, chunks }
    })
    // The entries, and the signed head's row in a chunk of its own.
    expect(start.result + rest.result.rows).toBe(BATCHES * EXPORT_BATCH + 10 + 1)
    // One chunk per batch read, each batch its entries and their names: two statements.
    expect(1 + rest.result.chunks).toBe(BATCHES + 1 + 1)
    expect(start.statements.length + rest.statements.length).toBe(1 + 2 * (BATCHES + 1))
  }, 60_000)
})
