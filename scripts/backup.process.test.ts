import { spawnSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { systemClock } from '../server/clock.ts'
import { type Database, openDatabase } from '../server/db/client.ts'
import { verifyChain } from '../server/modules/activity/chain.ts'
import { DEMO_MEMBERS, DEMO_ORGANIZATION_ID, seedDemo } from '../server/seed/demo.ts'
import { type Child, freePort, startServer } from '../tests/server/processes.ts'

// The backup round trip of issue 20, on the database of this run (PostgreSQL with TEST_DATABASE_URL, else
// PGlite): data written, a backup while the server runs and writes, a restore elsewhere, the same rows and a
// ledger hash chain that verifies; then the refusals of a restore into a database that is not empty.
const root = new URL('../', import.meta.url).pathname
const adminUrl = process.env.TEST_DATABASE_URL
const cleanups: Array<() => Promise<unknown>> = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined)
})

/** A place for a database: a DATA_DIR and, on PostgreSQL, a fresh database of its own. */
async function place(): Promise<Record<string, string>> {
  const dataDir = await mkdtemp(join(tmpdir(), 'trousseau-backup-'))
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }))
  if (!adminUrl) return { DATA_DIR: dataDir }
  const name = `trousseau_backup_${randomUUID().replaceAll('-', '')}`
  const admin = new pg.Client(adminUrl)
  await admin.connect()
  await admin.query(`create database ${name}`)
  await admin.end()
  cleanups.push(async () => {
    const again = new pg.Client(adminUrl)
    await again.connect()
    await again.query(`drop database if exists ${name} with (force)`)
    await again.end()
  })
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return { DATA_DIR: dataDir, DATABASE_URL: url.toString() }
}

const open = (env: Record<string, string>) =>
  openDatabase({ dataDir: env.DATA_DIR as string, databaseUrl: env.DATABASE_URL ?? null })

function script(name: string, args: string[], env: Record<string, string>) {
  return spawnSync(process.execPath, [join(root, 'scripts', name), ...args], {
    cwd: root,
    env: { PATH: process.env.PATH, ...env },
    encoding: 'utf8',
  })
}

/** Every table of the schema with a digest of its rows, in a stable order. */
async function tableDigests(database: Database): Promise<Record<string, string>> {
  const tables = (await database.db.execute(
    sql`select tablename from pg_tables where schemaname = 'public' order by tablename`,
  )) as unknown as { rows: Array<{ tablename: string }> }
  const digests: Record<string, string> = {}
  for (const { tablename } of tables.rows) {
    const result = (await database.db.execute(
      sql.raw(`select count(*)::int as n, md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as d
        from "${tablename}" t`),
    )) as unknown as { rows: Array<{ n: number; d: string }> }
    digests[tablename] = `${result.rows[0]?.n}:${result.rows[0]?.d}`
  }
  return digests
}

async function keychainNames(database: Database): Promise<string[]> {
  const result = (await database.db.execute(
    sql`select name from keychains where name like 'Backup %' order by name`,
  )) as unknown as { rows: Array<{ name: string }> }
  return result.rows.map((row) => row.name)
}

type Server = Child & { url: string }

/** `node server/main.ts` on a free port, with its address. */
async function startServerOnPort(env: Record<string, string>): Promise<Server> {
  const port = await freePort()
  return { ...(await startServer({ ...env, PORT: String(port) })), url: `http://127.0.0.1:${port}` }
}

async function signIn(server: Server, email: string): Promise<string> {
  const origin = server.url.replace('127.0.0.1', 'localhost')
  const headers = { origin, 'content-type': 'application/json' }
  const asked = await fetch(`${server.url}/api/email-tokens`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ email }),
  })
  expect(asked.status).toBe(202)
  let code: string | undefined
  for (let i = 0; i < 100 && !code; i += 1) {
    code = /code: (\d{6})/.exec(server.output())?.[1]
    if (!code) await new Promise((resolve) => setTimeout(resolve, 50))
  }
  const session = await fetch(`${server.url}/api/sessions`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ email, code }),
  })
  expect(session.status).toBe(201)
  return session.headers.getSetCookie()[0]?.split(';')[0] as string
}

describe(`npm run backup / restore (${adminUrl ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('backs up while the server runs and writes, restores elsewhere with the same rows and a valid ledger', async () => {
    const source = await place()
    const seeded = await open(source)
    await seeded.migrate()
    await seedDemo({ database: seeded, clock: systemClock })
    await seeded.close()

    const server = await startServerOnPort(source)
    let written = 0
    let writing = true
    let writer: Promise<void> = Promise.resolve()
    try {
      const cookie = await signIn(server, DEMO_MEMBERS[0]?.email as string)
      const origin = server.url.replace('127.0.0.1', 'localhost')
      // Keychains made one after the other: a consistent copy holds the first n of them and nothing after.
      writer = (async () => {
        while (writing) {
          const name = `Backup ${String(written + 1).padStart(5, '0')}`
          const response = await fetch(`${server.url}/api/keychains`, {
            method: 'POST',
            headers: { origin, cookie, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
            body: JSON.stringify({ name }),
          })
          expect(response.status, await response.text()).toBe(201)
          written += 1
        }
      })()
      while (written < 5) await new Promise((resolve) => setTimeout(resolve, 20))

      const backupDir = await mkdtemp(join(tmpdir(), 'trousseau-backups-'))
      cleanups.push(() => rm(backupDir, { recursive: true, force: true }))
      const file = join(backupDir, 'running.backup')
      const writtenBefore = written
      const backup = script('backup.ts', ['--out', file], source)
      expect(backup.status, backup.stderr + server.output()).toBe(0)
      expect(backup.stdout).toContain(`Backup written: ${file}`)
      // Its owner's alone, pg_dump's or the server's.
      expect((await stat(file)).mode & 0o777).toBe(0o600)
      writing = false
      await writer
      expect(written).toBeGreaterThan(writtenBefore)

      const target = await place()
      const restore = script('restore.ts', [file], target)
      expect(restore.status, restore.stderr).toBe(0)
      const restored = await open(target)
      try {
        const names = await keychainNames(restored)
        expect(names.length).toBeGreaterThanOrEqual(writtenBefore)
        expect(names.length).toBeLessThanOrEqual(written)
        expect(names).toEqual(
          Array.from({ length: names.length }, (_, i) => `Backup ${String(i + 1).padStart(5, '0')}`),
        )
        const chain = await verifyChain(restored.db, DEMO_ORGANIZATION_ID)
        expect(chain).toMatchObject({ valid: true })
        expect(chain.entries).toBeGreaterThan(names.length)
      } finally {
        await restored.close()
      }
    } finally {
      writing = false
      await writer.catch(() => undefined)
      server.process.kill('SIGTERM')
      expect(await server.exited).toBe(0)
    }
    // On PGlite the running server wrote it (it alone may open its data directory); its log is written
    // asynchronously, so it is read once the server has exited.
    if (!adminUrl) expect(server.output()).toContain('backup written')

    // The server stopped: a backup of the idle database restores to exactly the same rows, table by table.
    const backupDir = await mkdtemp(join(tmpdir(), 'trousseau-backups-'))
    cleanups.push(() => rm(backupDir, { recursive: true, force: true }))
    const file = join(backupDir, 'idle.backup')
    const backup = script('backup.ts', ['--out', file], source)
    expect(backup.status, backup.stderr).toBe(0)
    expect((await stat(file)).mode & 0o777).toBe(0o600)
    const target = await place()
    expect(script('restore.ts', [file], target).status).toBe(0)
    const [before, after] = [await open(source), await open(target)]
    try {
      const digests = await tableDigests(before)
      expect(Object.keys(digests).length).toBeGreaterThan(20)
      expect(await tableDigests(after)).toEqual(digests)
      expect((await keychainNames(after)).length).toBe(written)
      expect(await verifyChain(after.db, DEMO_ORGANIZATION_ID)).toMatchObject({ valid: true })
    } finally {
      await before.close()
      await after.close()
    }

    // A database that is not empty is refused without --force, replaced with it.
    const refused = script('restore.ts', [file], target)
    expect(refused.status).toBe(1)
    expect(refused.stderr).toMatch(/^Restore failed: .*(not empty|holds a database already).*--force/)
    const forced = script('restore.ts', [file, '--force'], target)
    expect(forced.status, forced.stderr).toBe(0)
    const again = await open(target)
    try {
      expect((await keychainNames(again)).length).toBe(written)
    } finally {
      await again.close()
    }
  }, 300_000)
})
