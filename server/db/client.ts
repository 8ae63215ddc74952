import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { sql } from 'drizzle-orm'
import type { Logger } from 'drizzle-orm/logger'
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres'
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import pg from 'pg'
import type { Config } from '../config.ts'
import { fromRoot } from '../paths.ts'
import { lockDataDir } from './pglite-lock.ts'
import { withNamedStatements } from './pglite-named.ts'
import * as schema from './schema.ts'

/** One drizzle type for both drivers: services never know which one runs. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>
type Driver = 'pglite' | 'postgres'

export type Database = {
  db: Db
  driver: Driver
  /** Applies the committed migrations (idempotent). */
  migrate(): Promise<void>
  /** Round-trip latency in ms; throws when the database does not answer. */
  ping(): Promise<number>
  close(): Promise<void>
  /** PGlite only: the whole data directory as a tarball, for `openPglite({ loadDataDir })`. */
  dump?: () => Promise<Blob>
}

const migrationsFolder = fileURLToPath(fromRoot('server/db/migrations'))

/**
 * PGlite under `$DATA_DIR/pglite` without DATABASE_URL, else a `pg` pool. Not yet migrated. PGlite refuses
 * a directory another live process holds (`$DATA_DIR/pglite.lock`).
 */
export async function openDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir'>): Promise<Database> {
  if (config.databaseUrl) return openPostgres(config.databaseUrl)
  const dir = join(config.dataDir, 'pglite')
  await mkdir(dir, { recursive: true })
  const lock = lockDataDir(`${dir}.lock`, dir)
  try {
    const database = await openPglite({ dataDir: dir })
    return {
      ...database,
      async close() {
        await database.close()
        lock.release()
      },
    }
  } catch (error) {
    lock.release()
    throw error
  }
}

/**
 * No `dataDir` means in memory (tests); `loadDataDir` starts from a dump (`dumpDataDir()`), which skips the
 * costly initdb.
 */
export async function openPglite(
  options: { dataDir?: string; loadDataDir?: Blob; logger?: Logger } = {},
): Promise<Database> {
  const { logger, ...pgliteOptions } = options
  // Loaded here: a deployment on PostgreSQL never holds PGlite's WebAssembly PostgreSQL in memory.
  const [{ PGlite }, { pg_trgm }, { drizzle: drizzlePglite }, { migrate: migratePglite }] = await Promise.all(
    [
      import('@electric-sql/pglite'),
      import('@electric-sql/pglite/contrib/pg_trgm'),
      import('drizzle-orm/pglite'),
      import('drizzle-orm/pglite/migrator'),
    ],
  )
  // pg_trgm: the trigram indexes of the searches (migration 0007).
  // Statements outside transactions are parsed once under a name (`withNamedStatements`).
  const client = await withNamedStatements(await PGlite.create({ ...pgliteOptions, extensions: { pg_trgm } }))
  const db = drizzlePglite({ client, schema, ...(logger ? { logger } : {}) })
  return withPing({
    db: db as unknown as Db,
    driver: 'pglite',
    migrate: () => migratePglite(db, { migrationsFolder }),
    close: () => client.close(),
    dump: () => client.dumpDataDir('none'),
  })
}

/** How long an unused pooled connection is kept open. */
const POOL_IDLE_MS = 5 * 60_000

export async function openPostgres(url: string, options: { logger?: Logger } = {}): Promise<Database> {
  // Idle connections are kept five minutes (pg's default is 10 s): a pause in traffic otherwise closes them
  // all, and the next burst waits for new backends, each parsing and planning its statements again (the API
  // benchmark's p99 of reads was 100-340 ms after a 10 s pause, 44-56 ms with warm connections).
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: POOL_IDLE_MS,
  })
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {})
  const db = drizzlePostgres({ client: pool, schema, ...(options.logger ? { logger: options.logger } : {}) })
  return withPing({
    db: db as unknown as Db,
    driver: 'postgres',
    migrate: () => migratePostgresLocked(pool),
    close: () => pool.end(),
  })
}

/** Any number like it; only Trousseau's migrations take this advisory lock. */
const MIGRATION_LOCK_KEY = 7_361_042_118

/**
 * Several processes starting together against one database would otherwise race through the same
 * migrations; a session-level advisory lock on one connection makes them take turns (the later ones find
 * nothing left to do).
 */
async function migratePostgresLocked(pool: pg.Pool): Promise<void> {
  const client = await pool.connect()
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY])
    try {
      await migratePostgres(drizzlePostgres({ client, schema }), { migrationsFolder })
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY])
    }
  } finally {
    client.release()
  }
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
