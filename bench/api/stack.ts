// The two servers the API benchmark compares: a bare node:http hello-world (the limit of one Node process
// here) and the product as production runs it (`dist-server/server.mjs`), each in its own process so that its
// resident memory can be read. The product's database is seeded before it starts (PGlite's folder is locked
// by the process that opens it).
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { SERVER_PROCESS_DEFAULTS } from '../../scripts/server-process.ts'
import { systemClock } from '../../server/clock.ts'
import { loadConfig } from '../../server/config.ts'
import { openDatabase } from '../../server/db/client.ts'
import type { AppDeps } from '../../server/deps.ts'
import { freePort } from '../../tests/server/processes.ts'
import { type SeededOrganization, seedOrganization } from '../sync/seed.ts'

export type Database = 'postgres' | 'pglite'
export type Running = { url: string; pid: number; stop(): Promise<void> }

export const SESSION_SECRET = randomBytes(32).toString('hex')

export function rssMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m)
  return line ? Math.round(Number(line[1]) / 1024) : Number.NaN
}

async function waitUntilUp(url: string, child: ChildProcess, output: () => string): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`exited early:\n${output()}`)
    if (
      await fetch(url).then(
        (response) => response.ok,
        () => false,
      )
    )
      return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`did not answer ${url}:\n${output()}`)
}

function run(args: string[], env: Record<string, string>, probe: string): Promise<Running> {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let output = ''
  child.stderr?.on('data', (chunk) => (output += chunk))
  const url = `http://127.0.0.1:${env.PORT}`
  const stop = async () => {
    if (child.exitCode !== null) return
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGTERM')
    await exited
  }
  return waitUntilUp(`${url}${probe}`, child, () => output).then(() => ({ url, pid: child.pid!, stop }))
}

export async function startBare(): Promise<Running> {
  const port = String(await freePort())
  const hello = `require('node:http').createServer((q, s) => { s.writeHead(200, { 'content-type': 'text/plain' }); s.end('hello') }).listen(${port}, '127.0.0.1')`
  return run(['-e', hello], { PORT: port }, '/')
}

/** A fresh database (PostgreSQL: created from `adminUrl`, dropped by `drop`; PGlite: a temp folder). */
export async function freshDatabase(kind: Database, adminUrl: string | undefined) {
  const dataDir = await mkdtemp(join(tmpdir(), 'trousseau-bench-api-'))
  if (kind === 'pglite')
    return { dataDir, url: '', drop: () => rm(dataDir, { recursive: true, force: true }) }
  if (!adminUrl) throw new Error('PostgreSQL needs BENCH_DATABASE_URL or TEST_DATABASE_URL')
  const name = `trousseau_bench_${randomBytes(4).toString('hex')}`
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl })
    await client.connect()
    await client.query(statement).finally(() => client.end())
  }
  await admin(`CREATE DATABASE "${name}"`)
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return {
    dataDir,
    url: url.toString(),
    drop: async () => {
      await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

/** Migrates and seeds the database through the server's own code, then closes it for the product to open. */
export async function seed(
  database: { dataDir: string; url: string },
  keychains: number,
): Promise<SeededOrganization> {
  const config = loadConfig({ DATA_DIR: database.dataDir, DATABASE_URL: database.url, SESSION_SECRET })
  const opened = await openDatabase(config)
  try {
    await opened.migrate()
    const deps = {
      database: opened,
      clock: systemClock,
      secret: Buffer.from(SESSION_SECRET),
      config,
    } as unknown as AppDeps
    return await seedOrganization(deps, 'AP', { tags: keychains * 3, keychains, transfers: 20 })
  } finally {
    await opened.close()
  }
}

export async function startProduct(
  database: { dataDir: string; url: string },
  root: string,
  variant: { bundle?: string; args?: string[]; env?: Record<string, string> } = {},
): Promise<Running> {
  const port = String(await freePort())
  return run(
    [...(variant.args ?? []), join(root, variant.bundle ?? 'dist-server/server.mjs')],
    {
      // As `npm start` runs it (production mode, malloc arenas).
      ...SERVER_PROCESS_DEFAULTS,
      PORT: port,
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://localhost:${port}`,
      DATA_DIR: database.dataDir,
      DATABASE_URL: database.url,
      SESSION_SECRET,
      STATIC_DIR: join(root, 'dist'),
      LOG_LEVEL: 'info',
      ...variant.env,
    },
    '/api/health',
  )
}
