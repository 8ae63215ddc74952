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

type Tx = Parameters<Parameters<TestApp['db']['transaction']>[0]>[0]

/**
 * Races `request` against a transaction that holds a row lock (`lock`) until the request waits for it, then
 * makes its change (`write`) and commits: the request's answer, as it comes after that commit.
 */
export async function againstAHeldRow<T>(
  t: TestApp,
  hold: { lock: (tx: Tx) => Promise<unknown>; write: (tx: Tx) => Promise<unknown> },
  request: () => Promise<T>,
): Promise<T> {
  let holding: () => void = () => {}
  let release: () => void = () => {}
  const held = new Promise<void>((resolve) => {
    holding = resolve
  })
  const released = new Promise<void>((resolve) => {
    release = resolve
  })
  const holder = t.db.transaction(async (tx) => {
    await hold.lock(tx)
    holding()
    await released
    await hold.write(tx)
  })
  await held
  const answer = request()
  await untilALockIsAwaited(t)
  release()
  await holder
  return answer
}
