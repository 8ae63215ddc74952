import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { PGlite } from '@electric-sql/pglite'
import { sql } from 'drizzle-orm'
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres'
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import pg from 'pg'
import type { Config } from '../config.ts'
import * as schema from './schema.ts'

/** One drizzle type for both drivers: services never know which one runs. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>
export type Driver = 'pglite' | 'postgres'

export type Database = {
  db: Db
  driver: Driver
  /** Applies the committed migrations (idempotent). */
  migrate(): Promise<void>
  /** Round-trip latency in ms; throws when the database does not answer. */
  ping(): Promise<number>
  close(): Promise<void>
}

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url))

/** PGlite under `$DATA_DIR/pglite` without DATABASE_URL, else a `pg` pool. Not yet migrated. */
export async function openDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir'>): Promise<Database> {
  if (config.databaseUrl) return openPostgres(config.databaseUrl)
  const dir = join(config.dataDir, 'pglite')
  await mkdir(dir, { recursive: true })
  return openPglite(dir)
}

/** `dataDir` undefined means in memory (tests). */
export async function openPglite(dataDir?: string): Promise<Database> {
  const client = await PGlite.create(dataDir ? { dataDir } : {})
  const db = drizzlePglite({ client, schema })
  return withPing({
    db: db as unknown as Db,
    driver: 'pglite',
    migrate: () => migratePglite(db, { migrationsFolder }),
    close: () => client.close(),
  })
}

export async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5000 })
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {})
  const db = drizzlePostgres({ client: pool, schema })
  return withPing({
    db: db as unknown as Db,
    driver: 'postgres',
    migrate: () => migratePostgres(db, { migrationsFolder }),
    close: () => pool.end(),
  })
}

function withPing(database: Omit<Database, 'ping'>): Database {
  return {
    ...database,
    async ping() {
      const started = performance.now()
      await database.db.execute(sql`select 1`)
      return Math.round((performance.now() - started) * 100) / 100
    },
  }
}
