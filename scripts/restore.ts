// `npm run restore -- FILE [--force]`: puts a backup of `npm run backup` into the database of this environment
// (DATABASE_URL, or the embedded PGlite database in $DATA_DIR), which must be empty: a database with tables
// (PostgreSQL) or a data directory with a database in it (PGlite) is refused unless --force. With --force,
// PostgreSQL's objects of the backup are dropped and recreated (`pg_restore --clean`); PGlite's data directory
// is kept aside as `pglite.before-restore-<time>`, not deleted. The server must be stopped on PGlite (the
// directory is locked while it runs). Start the server after: it applies the migrations newer than the backup.
// The connection goes to psql and pg_restore in their environment (PG* variables), never on their command line.
import { spawnSync } from 'node:child_process'
import { mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { DatabaseLockedError, lockDataDir } from '../server/db/pglite-lock.ts'
import { libpqEnvironment } from '../server/modules/backup/libpq-environment.ts'

const { values, positionals } = parseArgs({
  options: { force: { type: 'boolean', default: false } },
  allowPositionals: true,
})
const databaseUrl = process.env.DATABASE_URL?.trim() || null
const dataDir = process.env.DATA_DIR?.trim() || './data'

function fail(message: string): never {
  process.stderr.write(`Restore failed: ${message}\n`)
  process.exit(1)
}

const file = positionals[0]
if (!file || positionals.length > 1) fail('usage: npm run restore -- FILE [--force]')

/** `pgdump` (pg_dump's custom format) or `pglite` (a gzipped tarball of the data directory). */
async function formatOf(path: string): Promise<'pgdump' | 'pglite'> {
  const handle = await open(path).catch(() => fail(`cannot read ${path}`))
  try {
    const head = Buffer.alloc(5)
    await handle.read(head, 0, 5, 0)
    if (head.toString('latin1') === 'PGDMP') return 'pgdump'
    if (head[0] === 0x1f && head[1] === 0x8b) return 'pglite'
    return fail(`${path} is not a backup of npm run backup`)
  } finally {
    await handle.close()
  }
}

/** The environment of psql and pg_restore: this one's, with the connection of `url`. */
function clientEnvironment(url: string): NodeJS.ProcessEnv {
  try {
    return { ...process.env, ...libpqEnvironment(url) }
  } catch (error) {
    return fail((error as Error).message)
  }
}

function psql(url: string, query: string): string {
  const run = spawnSync('psql', ['-X', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-c', query], {
    encoding: 'utf8',
    env: clientEnvironment(url),
  })
  if (run.error) fail(`psql did not run (${run.error.message}): install postgresql-client`)
  if (run.status !== 0) fail(`psql: ${run.stderr.trim()}`)
  return run.stdout.trim()
}

async function restorePostgres(url: string, path: string): Promise<void> {
  const relations = Number(
    psql(
      url,
      `select count(*) from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where c.relkind in ('r', 'p', 'v', 'm', 'S') and n.nspname not in ('pg_catalog', 'information_schema')
       and n.nspname not like 'pg_toast%'`,
    ),
  )
  if (relations > 0 && !values.force) {
    fail(
      `the database of DATABASE_URL is not empty (${relations} tables and sequences); --force replaces them`,
    )
  }
  // pg_restore restores into a database only when given one (else it prints SQL): an empty `-d` takes PGDATABASE.
  const args = ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', '-d', '']
  if (values.force) args.push('--clean', '--if-exists')
  const run = spawnSync('pg_restore', [...args, path], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: clientEnvironment(url),
  })
  if (run.error) fail(`pg_restore did not run (${run.error.message}): install postgresql-client`)
  if (run.status !== 0) fail(`pg_restore exited with ${run.status}`)
}

async function restorePglite(path: string): Promise<void> {
  const dir = join(dataDir, 'pglite')
  await mkdir(dataDir, { recursive: true })
  let lock: { release(): void }
  try {
    lock = lockDataDir(`${dir}.lock`, dir)
  } catch (error) {
    if (error instanceof DatabaseLockedError) fail(`${error.message} (stop the server before a restore)`)
    throw error
  }
  try {
    const present = await readdir(dir).catch(() => [])
    if (present.length > 0) {
      if (!values.force) fail(`${dir} holds a database already; --force keeps it aside and restores`)
      const aside = `${dir}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`
      await rename(dir, aside)
      console.log(`The database that was there is kept in ${aside}`)
    }
    const [{ PGlite }, { pg_trgm }] = await Promise.all([
      import('@electric-sql/pglite'),
      import('@electric-sql/pglite/contrib/pg_trgm'),
    ])
    const loadDataDir = new Blob([await readFile(path)], { type: 'application/x-gzip' })
    try {
      const client = await PGlite.create({ dataDir: dir, loadDataDir, extensions: { pg_trgm } })
      try {
        // Proves the copy opens and is Trousseau's: the migrations the backup had.
        await client.query('select count(*) from drizzle.__drizzle_migrations')
        await client.exec('checkpoint')
      } finally {
        await client.close()
      }
    } catch (error) {
      await rm(dir, { recursive: true, force: true })
      lock.release()
      fail(`${path} did not open as a Trousseau database: ${error instanceof Error ? error.message : error}`)
    }
  } finally {
    lock.release()
  }
}

const format = await formatOf(file)
if (format === 'pgdump') {
  if (!databaseUrl) fail(`${file} is a PostgreSQL backup: set DATABASE_URL to the database to restore into`)
  await restorePostgres(databaseUrl, file)
} else {
  if (databaseUrl) fail(`${file} is a PGlite backup: unset DATABASE_URL and set DATA_DIR`)
  await restorePglite(file)
}
console.log(`Restored ${file} into ${databaseUrl ? 'the database of DATABASE_URL' : join(dataDir, 'pglite')}`)
