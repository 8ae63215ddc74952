import type { Logger } from 'drizzle-orm/logger'

/**
 * Counts the SQL statements drizzle sends, for the tests that keep a request's cost in check (a test database
 * is opened with `statementLogger`; production databases have no logger at all).
 */
let current: string[] | null = null

export const statementLogger: Logger = {
  logQuery(query) {
    current?.push(query)
  },
}

/** The statements `run` sent (not BEGIN and COMMIT, which drizzle does not log). */
export async function statementsOf<T>(run: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  const statements: string[] = []
  current = statements
  try {
    return { result: await run(), statements }
  } finally {
    current = null
  }
}
