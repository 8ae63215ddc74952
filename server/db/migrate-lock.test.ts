import { randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { openPostgres } from './client.ts'

const adminUrl = process.env.TEST_DATABASE_URL

async function admin(statement: string) {
  const client = new pg.Client({ connectionString: adminUrl })
  await client.connect()
  try {
    await client.query(statement)
  } finally {
    await client.end()
  }
}

describe.skipIf(!adminUrl)('migrations on PostgreSQL', () => {
  it('take turns when several processes start together on an empty database', async () => {
    const name = `trousseau_migrate_${randomBytes(6).toString('hex')}`
    await admin(`CREATE DATABASE "${name}"`)
    const url = new URL(adminUrl!)
    url.pathname = `/${name}`
    const databases = await Promise.all([1, 2, 3, 4].map(() => openPostgres(url.toString())))
    try {
      await Promise.all(databases.map((database) => database.migrate()))
      const result = (await databases[0]!.db.execute(
        sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
      )) as unknown as { rows: Array<{ n: number }> }
      const journal = await import('./migrations/meta/_journal.json', { with: { type: 'json' } })
      expect(result.rows[0]?.n).toBe(journal.default.entries.length)
    } finally {
      await Promise.all(databases.map((database) => database.close()))
      await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
    }
  })
})
