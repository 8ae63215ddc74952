// `npm run backup [-- --out FILE]`: a consistent copy of the database the server uses (same environment:
// DATABASE_URL, or the embedded PGlite database in $DATA_DIR), while the server runs or not.
// - PostgreSQL: `pg_dump --format=custom` (one REPEATABLE READ snapshot; Debian's postgresql-client, of the
//   server's major version or newer).
// - PGlite, server running: asked of the server process, which alone may open the data directory (SIGUSR2 and a
//   request file, server/modules/backup/on-signal.ts); server stopped: this process opens it and dumps it.
// The connection goes to pg_dump in its environment (PG* variables), never on its command line (`ps` shows that to
// every local user); the backup is 0600 and the folders made for it 0700, whatever the umask.
// Only run-time dependencies and Node's own modules: it works on a production install (`npm ci --omit=dev`).
import { spawnSync } from 'node:child_process'
import { copyFile, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { DatabaseLockedError, lockDataDir } from '../server/db/pglite-lock.ts'
import { libpqEnvironment } from '../server/modules/backup/libpq-environment.ts'
import { BACKUP_REQUEST_SUFFIX, BACKUP_SIGNAL, backupsDir } from '../server/modules/backup/on-signal.ts'
import {
  makeBackupsDir,
  makePrivateDirs,
  makePrivateFile,
  PRIVATE_FILE,
} from '../server/modules/backup/private-files.ts'

const WAIT_FOR_SERVER_MS = 10 * 60_000

const { values } = parseArgs({ options: { out: { type: 'string' } } })
const databaseUrl = process.env.DATABASE_URL?.trim() || null
const dataDir = process.env.DATA_DIR?.trim() || './data'
const stamp = new Date().toISOString().replace(/[:.]/g, '-')
// By default beside the data, never in the working copy (a backup holds every user's data).
const out = resolve(
  values.out ?? join(backupsDir(dataDir), `trousseau-${stamp}.${databaseUrl ? 'pgdump' : 'pglite.tar.gz'}`),
)

function fail(message: string): never {
  process.stderr.write(`Backup failed: ${message}\n`)
  process.exit(1)
}

async function moveFile(from: string, to: string): Promise<void> {
  try {
    await rename(from, to)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error
    await copyFile(from, to)
    await rm(from)
  }
}

async function backupPostgres(url: string): Promise<void> {
  let connection: Record<string, string>
  try {
    connection = libpqEnvironment(url)
  } catch (error) {
    fail((error as Error).message)
  }
  // The file is made here, private from its first byte, and pg_dump writes into it as its standard output.
  const file = await open(out, 'wx', PRIVATE_FILE)
  let dump: ReturnType<typeof spawnSync>
  try {
    await file.chmod(PRIVATE_FILE)
    dump = spawnSync('pg_dump', ['--format=custom', '--no-owner', '--no-privileges'], {
      stdio: ['ignore', file.fd, 'inherit'],
      env: { ...process.env, ...connection },
    })
  } finally {
    await file.close()
  }
  if (dump.error || dump.status !== 0) await rm(out, { force: true })
  if (dump.error) fail(`pg_dump did not run (${dump.error.message}): install postgresql-client`)
  if (dump.status !== 0) fail(`pg_dump exited with ${dump.status}`)
}

/** The server holds the data directory: it writes the backup in `$DATA_DIR/backups/`, moved to `out` after. */
async function askTheServer(pid: number): Promise<void> {
  const dir = backupsDir(dataDir)
  await makeBackupsDir(dir)
  const name = `backup-${stamp}-${process.pid}.tar.gz`
  const target = join(dir, name)
  await writeFile(`${target}${BACKUP_REQUEST_SUFFIX}`, '', { mode: PRIVATE_FILE })
  process.kill(pid, BACKUP_SIGNAL)
  const started = Date.now()
  for (;;) {
    if (await exists(target)) break
    if (await exists(`${target}.failed`)) {
      const reason = (await readFile(`${target}.failed`, 'utf8')).trim()
      await rm(`${target}.failed`, { force: true })
      fail(`the server (pid ${pid}) could not write it: ${reason}`)
    }
    if (Date.now() - started > WAIT_FOR_SERVER_MS) {
      await rm(`${target}${BACKUP_REQUEST_SUFFIX}`, { force: true })
      fail(`the server (pid ${pid}) did not answer within ${WAIT_FOR_SERVER_MS / 60_000} minutes`)
    }
    await new Promise((done) => setTimeout(done, 100))
  }
  await moveFile(target, out)
  await makePrivateFile(out)
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  )
}

async function dumpItself(dir: string): Promise<void> {
  const [{ PGlite }, { pg_trgm }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
  ])
  const client = await PGlite.create({ dataDir: dir, extensions: { pg_trgm } })
  try {
    await client.exec('checkpoint')
    const tarball = await client.dumpDataDir('gzip')
    await writeFile(out, Buffer.from(await tarball.arrayBuffer()), { flag: 'wx', mode: PRIVATE_FILE })
    await makePrivateFile(out)
  } finally {
    await client.close()
  }
}

async function backupPglite(): Promise<void> {
  const dir = join(dataDir, 'pglite')
  if (!(await exists(join(dir, 'PG_VERSION')))) fail(`there is no database in ${dir} (DATA_DIR=${dataDir})`)
  const lockFile = `${dir}.lock`
  let lock: { release(): void }
  try {
    lock = lockDataDir(lockFile, dir)
  } catch (error) {
    if (!(error instanceof DatabaseLockedError)) throw error
    const pid = Number.parseInt(await readFile(lockFile, 'utf8').catch(() => ''), 10)
    if (!Number.isInteger(pid) || pid <= 0) fail(error.message)
    await askTheServer(pid)
    return
  }
  try {
    await dumpItself(dir)
  } finally {
    lock.release()
  }
}

if (values.out === undefined) await makeBackupsDir(dirname(out))
else await makePrivateDirs(dirname(out))
if (await exists(out)) fail(`${out} exists already`)
if (databaseUrl) await backupPostgres(databaseUrl)
else await backupPglite()
console.log(`Backup written: ${out} (${(await stat(out)).size} bytes)`)
