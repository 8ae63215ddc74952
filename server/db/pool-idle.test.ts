import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { openPostgres } from './client.ts'

const url = process.env.TEST_DATABASE_URL

const backend = async (database: Awaited<ReturnType<typeof openPostgres>>) =>
  ((await database.db.execute(sql`select pg_backend_pid() as pid`)) as unknown as { rows: { pid: number }[] })
    .rows[0]!.pid

describe.skipIf(!url)('the PostgreSQL pool', () => {
  it('keeps an idle connection through a pause longer than pg’s default 10 s (no new backend for the next burst)', async () => {
    const database = await openPostgres(url!)
    try {
      const before = await backend(database)
      await new Promise((resolve) => setTimeout(resolve, 11_000))
      expect(await backend(database)).toBe(before)
    } finally {
      await database.close()
    }
  }, 30_000)
})
