import { randomBytes } from 'node:crypto'
import { getTableName, sql } from 'drizzle-orm'
import { PgTable } from 'drizzle-orm/pg-core'
import pg from 'pg'
import { type Database, openPglite, openPostgres } from '../db/client.ts'
import * as schema from '../db/schema.ts'

/**
 * A fresh, migrated database for one test file: in-memory PGlite, or, when TEST_DATABASE_URL is set, a new
 * database created on that server (random name, dropped on close) so parallel files never collide.
 */
export async function openTestDatabase(): Promise<Database> {
  const adminUrl = process.env.TEST_DATABASE_URL
  if (!adminUrl) {
    const database = await openPglite()
    await database.migrate()
    return database
  }
  const name = `trousseau_test_${randomBytes(6).toString('hex')}`
  await admin(adminUrl, `CREATE DATABASE "${name}"`)
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  const database = await openPostgres(url.toString())
  await database.migrate()
  return {
    ...database,
    async close() {
      await database.close()
      await admin(adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
    },
  }
}

async function admin(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(statement)
  } finally {
    await client.end()
  }
}

/** Empties every table of the schema (between tests that must not see each other's rows). */
export async function truncateAll(database: Database): Promise<void> {
  const tables = Object.values(schema).flatMap((value) =>
    value instanceof PgTable ? [`"${getTableName(value)}"`] : [],
  )
  await database.db.execute(sql.raw(`TRUNCATE ${tables.join(', ')} CASCADE`))
}
