import { spawnSync } from 'node:child_process'
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../server/db/client.ts'

// `npm run backup` and `restore` keep the database's password off their children's command lines (where `ps`
// shows it to every local user) and the backup to its owner (file 0600, folders made for it 0700), whatever the
// umask (022 here, the usual one). pg_dump, pg_restore and psql are stand-ins that write down what they were given:
// their argv, as `ps` shows it, and their PG* environment; the real ones run in backup.process.test.ts.
const root = new URL('../', import.meta.url).pathname
const PASSWORD = 's3cr@t:pw'
const DATABASE_URL = `postgres://trousseau:${encodeURIComponent(PASSWORD)}@db.example.test:6543/trousseau?sslmode=require`
let work: string
let bin: string

const STAND_IN = `#!/bin/sh
# What ps shows of this process, then its PG* environment.
{ printf '%s\\n' "$(basename "$0")" "$@"; echo ---; env | grep '^PG' | sort; } > "$RECORD/$(basename "$0").txt"
case "$(basename "$0")" in
  psql) echo 0 ;;
  pg_dump)
    out=-
    for arg; do case "$arg" in --file=*) out="\${arg#--file=}" ;; esac; done
    if [ "$out" = - ]; then printf 'PGDMP stand-in'; else printf 'PGDMP stand-in' > "$out"; fi ;;
esac
`

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'trousseau-private-'))
  bin = join(work, 'bin')
  await mkdir(bin)
  for (const name of ['pg_dump', 'pg_restore', 'psql'])
    await writeFile(join(bin, name), STAND_IN, { mode: 0o755 })
})
afterAll(() => rm(work, { recursive: true, force: true }))

/** Runs a script under umask 022 with the stand-ins first in PATH; answers its result and what they recorded. */
async function run(name: string, args: string[], env: Record<string, string>) {
  const record = await mkdtemp(join(work, 'record-'))
  const result = spawnSync(
    'sh',
    ['-c', 'umask 022; exec "$@"', 'sh', process.execPath, join(root, 'scripts', name), ...args],
    {
      cwd: root,
      env: { PATH: `${bin}:${process.env.PATH}`, RECORD: record, ...env },
      encoding: 'utf8',
    },
  )
  const recorded = async (tool: string) => {
    const [argv, environment] = (await readFile(join(record, `${tool}.txt`), 'utf8')).split('---\n')
    return { argv: argv!.trim().split('\n'), env: environment!.trim().split('\n') }
  }
  return { ...result, recorded }
}

const mode = async (path: string) => (await stat(path)).mode & 0o777

describe('npm run backup on PostgreSQL', () => {
  it('gives pg_dump the connection in its environment, none of it on its command line', async () => {
    const dataDir = await mkdtemp(join(work, 'data-'))
    const backup = await run('backup.ts', [], { DATA_DIR: dataDir, DATABASE_URL })
    expect(backup.status, backup.stderr).toBe(0)
    const { argv, env } = await backup.recorded('pg_dump')
    expect(argv).toEqual(['pg_dump', '--format=custom', '--no-owner', '--no-privileges'])
    expect(env).toEqual([
      'PGDATABASE=trousseau',
      'PGHOST=db.example.test',
      `PGPASSWORD=${PASSWORD}`,
      'PGPORT=6543',
      'PGSSLMODE=require',
      'PGUSER=trousseau',
    ])
  })

  it('writes the backup 0600 in a backups folder 0700, made so again if an earlier version left it 0755', async () => {
    const dataDir = await mkdtemp(join(work, 'data-'))
    for (const existing of [false, true]) {
      if (existing) await chmod(join(dataDir, 'backups'), 0o755)
      const backup = await run('backup.ts', [], { DATA_DIR: dataDir, DATABASE_URL })
      expect(backup.status, backup.stderr).toBe(0)
      expect(await mode(join(dataDir, 'backups'))).toBe(0o700)
      for (const name of await readdir(join(dataDir, 'backups'))) {
        expect(name).toMatch(/^trousseau-.*\.pgdump$/)
        expect(await mode(join(dataDir, 'backups', name))).toBe(0o600)
        expect(await readFile(join(dataDir, 'backups', name), 'utf8')).toBe('PGDMP stand-in')
      }
    }
  })

  it('makes the folders of --out 0700, leaves one that was there as it was, and refuses a file that is', async () => {
    const mine = await mkdtemp(join(work, 'out-'))
    await chmod(mine, 0o755)
    const file = join(mine, 'a', 'b', 'trousseau.pgdump')
    const backup = await run('backup.ts', ['--out', file], { DATABASE_URL })
    expect(backup.status, backup.stderr).toBe(0)
    expect([await mode(mine), await mode(join(mine, 'a')), await mode(join(mine, 'a', 'b'))]).toEqual([
      0o755, 0o700, 0o700,
    ])
    expect(await mode(file)).toBe(0o600)
    const again = await run('backup.ts', ['--out', file], { DATABASE_URL })
    expect(again.status).toBe(1)
    expect(again.stderr).toBe(`Backup failed: ${file} exists already\n`)
  })

  it('says what in DATABASE_URL pg_dump cannot take in its environment, and writes nothing', async () => {
    const dataDir = await mkdtemp(join(work, 'data-'))
    const backup = await run('backup.ts', [], {
      DATA_DIR: dataDir,
      DATABASE_URL: `${DATABASE_URL}&keepalives=0`,
    })
    expect(backup.status).toBe(1)
    expect(backup.stderr).toBe(
      'Backup failed: DATABASE_URL sets keepalives, which pg_dump, pg_restore and psql take on their command line only\n',
    )
    expect(backup.stderr).not.toContain('s3cr')
    expect(await readdir(join(dataDir, 'backups'))).toEqual([])
  })
})

describe('npm run restore on PostgreSQL', () => {
  it('gives psql and pg_restore the connection in their environment, none of it on their command line', async () => {
    const file = join(await mkdtemp(join(work, 'in-')), 'trousseau.pgdump')
    await writeFile(file, 'PGDMP stand-in')
    const restore = await run('restore.ts', [file], { DATABASE_URL })
    expect(restore.status, restore.stderr).toBe(0)
    const psql = await restore.recorded('psql')
    const pgRestore = await restore.recorded('pg_restore')
    for (const { argv, env } of [psql, pgRestore]) {
      expect(argv.join(' ')).not.toMatch(/s3cr|db\.example|postgres:/)
      expect(env).toContain(`PGPASSWORD=${PASSWORD}`)
      expect(env).toContain('PGDATABASE=trousseau')
      expect(env).toContain('PGSSLMODE=require')
    }
    expect(pgRestore.argv).toEqual([
      'pg_restore',
      '--no-owner',
      '--no-privileges',
      '--exit-on-error',
      '--single-transaction',
      '-d',
      '',
      file,
    ])
  })
})

describe('npm run backup on PGlite, the server stopped', () => {
  it('writes the backup 0600 in a backups folder 0700', async () => {
    const dataDir = await mkdtemp(join(work, 'data-'))
    const database = await openDatabase({ dataDir, databaseUrl: null })
    await database.close()
    const backup = await run('backup.ts', [], { DATA_DIR: dataDir })
    expect(backup.status, backup.stderr).toBe(0)
    const [name, ...more] = await readdir(join(dataDir, 'backups'))
    expect(more).toEqual([])
    expect(name).toMatch(/^trousseau-.*\.pglite\.tar\.gz$/)
    expect(await mode(join(dataDir, 'backups'))).toBe(0o700)
    expect(await mode(join(dataDir, 'backups', name!))).toBe(0o600)
  }, 120_000)
})
