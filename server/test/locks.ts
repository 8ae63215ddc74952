import { sql } from 'drizzle-orm'
import type { TestApp } from './harness.ts'

/**
 * Until a backend of the test database waits for a row lock (PostgreSQL only): how a race test knows the
 * request it started has reached the statement it wants to hold up.
 */
export async function untilALockIsAwaited(t: TestApp): Promise<void> {
  for (let attempt = 0; attempt < 500; attempt += 1) {
    const result = (await t.db.execute(
      sql`select count(*)::int as waiting from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock'`,
    )) as unknown as { rows: { waiting: number }[] }
    const [row] = result.rows
    if (row && row.waiting > 0) return
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  throw new Error('No request ever waited for the row lock held by the test')
}
