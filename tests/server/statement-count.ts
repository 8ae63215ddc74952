import type { Logger } from 'drizzle-orm/logger'

/**
 * Counts the SQL statements drizzle sends, for the tests that keep a request's cost in check (a test database
 * is opened with `statementLogger`; production databases have no logger at all).
 */
let current: string[] | null = null

/** Transaction control: logged by drizzle on PostgreSQL, not on PGlite; left out so both count alike. */
const CONTROL = /^(begin|commit|rollback|savepoint|release)\b/i

export const statementLogger: Logger = {
  logQuery(query) {
    if (!CONTROL.test(query)) current?.push(query)
  },
}

/** The statements `run` sent, BEGIN and COMMIT aside (a transaction adds those two round trips on PostgreSQL). */
export async function statementsOf<T>(run: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  const statements: string[] = []
  current = statements
  try {
    return { result: await run(), statements }
  } finally {
    current = null
  }
}

/**
 * Runs `run` without counting its statements: the jobs a test drains after a request (in production they run
 * after the answer, on the runner's own turn) are not the request's cost.
 */
export async function uncounted<T>(run: () => Promise<T>): Promise<T> {
  const counting = current
  current = null
  try {
    return await run()
  } finally {
    current = counting
  }
}
