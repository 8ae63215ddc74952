import { randomBytes } from 'node:crypto'
import { readFile, rename, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getTableName, sql } from 'drizzle-orm'
import { PgTable } from 'drizzle-orm/pg-core'
import pg from 'pg'
import { type Database, openPglite, openPostgres } from '../../server/db/client.ts'
import * as schema from '../../server/db/schema.ts'
import { migrationsFingerprint } from './pglite-template.ts'
import { statementLogger } from './statement-count.ts'

/**
 * A fresh, migrated database for one test file: in-memory PGlite (emptied, if not new: `leasePglite`), or,
 * when TEST_DATABASE_URL is set, a new database created on that server (random name, dropped on close) so
 * parallel files never collide. On PostgreSQL it is a copy of a migrated template (`CREATE DATABASE … TEMPLATE`, a fraction of running the
 * migrations again), made by the first file that needs it.
 */
export async function openTestDatabase(): Promise<Database> {
  const adminUrl = process.env.TEST_DATABASE_URL
  if (!adminUrl) return leasePglite()
  const created = await createPostgresDatabase(adminUrl)
  const database = await openPostgres(created.url, { logger: statementLogger })
  await database.migrate() // a no-op, unless the template is somehow behind
  return {
    ...database,
    async close() {
      await database.close()
      await created.drop()
    },
  }
}

/**
 * A new database on the server of `adminUrl` (random name), a copy of the migrated template: its URL, for a
 * server process or a pool to open, and a way to drop it (connections still open are closed).
 */
export async function createPostgresDatabase(
  adminUrl: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const template = await migratedTemplate(adminUrl)
  const name = `trousseau_test_${randomBytes(6).toString('hex')}`
  await admin(adminUrl, `CREATE DATABASE "${name}" TEMPLATE "${template}"`)
  return {
    url: databaseUrl(adminUrl, name),
    drop: () => admin(adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  }
}

/**
 * Two connections to one fresh database, as two server processes would have: two pools on PostgreSQL; on
 * PGlite, which is one process's embedded database, the same one twice. Close the first to drop it.
 */
export async function openTestDatabaseTwice(): Promise<[Database, Database]> {
  const first = await openTestDatabase()
  const adminUrl = process.env.TEST_DATABASE_URL
  if (!adminUrl) return [first, { ...first, close: async () => undefined }]
  const result = (await first.db.execute(sql`select current_database() as name`)) as unknown as {
    rows: [{ name: string }]
  }
  const [{ name }] = result.rows
  return [first, await openPostgres(databaseUrl(adminUrl, name), { logger: statementLogger })]
}

function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  // A throw-away database: a commit need not wait for its WAL to reach the disk.
  url.searchParams.set('options', '-c synchronous_commit=off')
  return url.toString()
}

/**
 * The name of a database migrated to the current migrations, kept on the server between runs. Made under a
 * name of its own, then renamed: two files making it at once leave one template, never a half-migrated one.
 */
async function migratedTemplate(adminUrl: string): Promise<string> {
  const template = `trousseau_template_${await migrationsFingerprint()}`
  if (await databaseExists(adminUrl, template)) return template
  const making = `${template}_${randomBytes(4).toString('hex')}`
  await admin(adminUrl, `CREATE DATABASE "${making}"`)
  const database = await openPostgres(databaseUrl(adminUrl, making))
  await database.migrate()
  await database.close()
  try {
    await admin(adminUrl, `ALTER DATABASE "${making}" RENAME TO "${template}"`)
  } catch (error) {
    await admin(adminUrl, `DROP DATABASE IF EXISTS "${making}" WITH (FORCE)`)
    if (!(await databaseExists(adminUrl, template))) throw error
  }
  return template
}

async function databaseExists(adminUrl: string, name: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: adminUrl })
  await client.connect()
  try {
    return (await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1
  } finally {
    await client.end()
  }
}

/**
 * In-memory PGlite, started from a snapshot of a freshly migrated database kept in the temp directory: a
 * load takes ~0.3 s where initdb + migrations take ~2.5 s. The first file to need it writes it (atomically).
 */
async function openMigratedPglite(): Promise<Database> {
  const snapshot = join(tmpdir(), `trousseau-pglite-${await migrationsFingerprint()}.tar`)
  const cached = await readFile(snapshot).catch(() => null)
  if (cached) {
    const database = await openPglite({ loadDataDir: new Blob([cached]), logger: statementLogger })
    await database.migrate() // a no-op, unless the snapshot is somehow behind
    return database
  }
  const database = await openPglite({ logger: statementLogger })
  await database.migrate()
  const dump = Buffer.from(await (await database.dump!()).arrayBuffer())
  const partial = `${snapshot}.${process.pid}.${randomBytes(4).toString('hex')}`
  await writeFile(partial, dump)
  await rename(partial, snapshot)
  return database
}

/**
 * In-memory PGlite instances given back by test databases that closed, emptied, for the next file of this
 * worker (server test files run with `isolate: false`, so this module outlives a file). Starting one, even from
 * the snapshot, costs 1–2 s of CPU (WebAssembly, the data directory, PostgreSQL's start); emptying one a few
 * statements.
 */
const idle: Database[] = []
const KEPT_IDLE = 2
/** What an instance holds besides rows when it is as migrated (see `shapeOf`); the first one sets it. */
let migratedShape: string | undefined

/**
 * A migrated PGlite as good as new for the caller: one given back (rows truncated, identities restarted, the
 * session's settings, locks and temporary tables reset) or a new one. Its `close()` gives it back; from then on
 * this lease answers like a closed database (every use throws), as tests of a database gone expect.
 */
async function leasePglite(): Promise<Database> {
  const database = idle.pop() ?? (await openMigratedPglite())
  migratedShape ??= await shapeOf(database)
  let released = false
  const open = () => {
    if (released) throw new Error('The test database is closed')
  }
  const db = new Proxy(database.db, {
    get(target, property) {
      open()
      const value = Reflect.get(target, property, target)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
  return {
    ...database,
    db,
    async migrate() {
      open()
      await database.migrate()
    },
    async ping() {
      open()
      return database.ping()
    },
    async close() {
      if (released) return
      released = true
      if (idle.length < KEPT_IDLE && (await emptied(database))) idle.push(database)
      else await database.close()
    },
  }
}

/** Back to the migrated state, or false when it cannot be (an aborted transaction, a changed schema or plan). */
async function emptied(database: Database): Promise<boolean> {
  try {
    const { db } = database
    await db.execute(sql`RESET ALL`)
    await db.execute(sql`SELECT pg_advisory_unlock_all()`)
    await db.execute(sql`DISCARD TEMP`)
    const tables = (await db.execute(
      sql`SELECT format('%I.%I', schemaname, tablename) AS name FROM pg_tables
          WHERE schemaname = 'public' AND tablename <> 'plans'`,
    )) as unknown as { rows: Array<{ name: string }> }
    const names = tables.rows.map((row) => row.name)
    if (names.length > 0) await db.execute(sql.raw(`TRUNCATE ${names.join(', ')} RESTART IDENTITY CASCADE`))
    return (await shapeOf(database)) === migratedShape
  } catch {
    return false
  }
}

/**
 * A digest of everything a test could change besides rows: tables, columns, indexes, constraints, triggers,
 * functions, extensions, sequences' positions, and the plans (reference rows kept by a reset).
 */
async function shapeOf(database: Database): Promise<string> {
  const result = (await database.db.execute(sql`
    SELECT md5(concat_ws('|',
      (SELECT string_agg(concat_ws(' ', table_schema, table_name, column_name, data_type, column_default,
         is_nullable), ',' ORDER BY table_schema, table_name, column_name)
       FROM information_schema.columns WHERE table_schema NOT IN ('pg_catalog', 'information_schema')),
      (SELECT string_agg(indexdef, ',' ORDER BY indexdef) FROM pg_indexes WHERE schemaname <> 'pg_catalog'),
      (SELECT string_agg(concat_ws(' ', c.conname, c.conrelid::regclass::text, pg_get_constraintdef(c.oid)), ','
         ORDER BY c.conname, c.conrelid::regclass::text)
       FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
       WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')),
      (SELECT string_agg(concat_ws(' ', tgname, tgrelid::regclass::text, tgenabled), ','
         ORDER BY tgname, tgrelid::regclass::text) FROM pg_trigger WHERE NOT tgisinternal),
      (SELECT string_agg(concat_ws(' ', p.proname, md5(p.prosrc)), ',' ORDER BY p.proname, md5(p.prosrc))
       FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
       WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')),
      (SELECT string_agg(concat_ws(' ', extname, extversion), ',' ORDER BY extname) FROM pg_extension),
      (SELECT string_agg(concat_ws(' ', schemaname, sequencename, last_value), ','
         ORDER BY schemaname, sequencename) FROM pg_sequences),
      (SELECT string_agg(nspname, ',' ORDER BY nspname) FROM pg_namespace),
      (SELECT string_agg(p::text, ',' ORDER BY p::text) FROM plans p)
    )) AS shape`)) as unknown as { rows: [{ shape: string }] }
  return result.rows[0].shape
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

/** Tables filled by migrations (reference data), which a reset keeps. */
const REFERENCE_TABLES = new Set(['plans'])

/** Empties every table of the schema (between tests that must not see each other's rows), plans excepted. */
export async function truncateAll(database: Database): Promise<void> {
  const tables = Object.values(schema).flatMap((value) =>
    value instanceof PgTable && !REFERENCE_TABLES.has(getTableName(value))
      ? [`"${getTableName(value)}"`]
      : [],
  )
  await database.db.execute(sql.raw(`TRUNCATE ${tables.join(', ')} CASCADE`))
}
