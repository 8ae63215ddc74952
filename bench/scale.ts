// npm run bench:scale — does a request cost the same at 1,000 and at 100,000 keychains and tags? For each
// database (BENCH_DATABASES: postgres,pglite) and size (BENCH_SIZES: 1000,10000,100000), a fresh server with one
// organization of that many keychains and tags, then p50 and p95 of BENCH_CALLS (50) sequential calls of each
// list, search, scan, dashboard and mirror page (BENCH_ONLY: the calls whose name starts with one of these). Target: the largest size within 1.5× of the smallest (p50).
// The sizes' servers run side by side and each call is made of every size in turn (A B A B …), so that a
// change in the machine's load falls on every size alike.
// PostgreSQL from BENCH_DATABASE_URL or TEST_DATABASE_URL. Results: bench/results/scale-<time>.json.

import { execFile } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { loadConfig } from '../server/config.ts'
import { createLogger } from '../server/logger.ts'
import { startServer } from '../server/main.ts'
import { productionEnv } from '../tests/e2e/harness.ts'
import { freePort } from '../tests/server/processes.ts'
import { type Database, freshDatabase } from './api/stack.ts'
import { seedOrganization } from './sync/seed.ts'

const root = new URL('..', import.meta.url).pathname
const DATABASES = (process.env.BENCH_DATABASES ?? 'postgres,pglite').split(',') as Database[]
const SIZES = (process.env.BENCH_SIZES ?? '1000,10000,100000').split(',').map(Number)
const CALLS = Number(process.env.BENCH_CALLS ?? 50)
/** Only the calls whose name starts with one of these (e.g. `keychain search`); all by default. */
const ONLY = process.env.BENCH_ONLY?.split(',')
const RATIO_TARGET = 1.5

type Call = { name: string; request: () => Promise<Response> }

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]! * 10) / 10
}

/**
 * One call of each size in turn (A B, then B A: neither always goes first), CALLS times after 5 unmeasured
 * turns: p50 and p95 per size.
 */
async function measure(name: string, bySize: Call[]) {
  const times: number[][] = bySize.map(() => [])
  const forth = [...bySize.keys()]
  const back = [...forth].reverse()
  for (let index = 0; index < CALLS + 5; index += 1) {
    for (const at of index % 2 === 0 ? forth : back) {
      const started = performance.now()
      const response = await bySize[at]!.request()
      await response.arrayBuffer()
      if (!response.ok) throw new Error(`${name} at ${SIZES[at]}: HTTP ${response.status}`)
      if (index >= 5) times[at]!.push(performance.now() - started)
    }
  }
  return times.map((each) => ({ p50: quantile(each, 0.5), p95: quantile(each, 0.95) }))
}

/** A server with one organization of `size` keychains and tags, and the calls measured on it. */
async function atSize(kind: Database, size: number) {
  const database = await freshDatabase(kind, process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL)
  const port = await freePort()
  const config = loadConfig({
    ...productionEnv({ port, dataDir: database.dataDir, smtpUrl: '', staticDir: join(root, 'dist') }),
    SMTP_URL: '',
    ...(database.url ? { DATABASE_URL: database.url } : {}),
  })
  const server = await startServer(config, createLogger('warn')).catch(async (error: unknown) => {
    await database.drop()
    throw error
  })
  const close = async () => {
    try {
      await server.close()
    } finally {
      await database.drop()
    }
  }
  try {
    const organization = await seedOrganization(server.deps, 'SC', {
      tags: size,
      keychains: size,
      transfers: 20,
    })
    const base = server.url
    const headers = { cookie: `session=${organization.fieldSession}` }
    const get = (path: string) => () => fetch(`${base}${path}`, { headers })
    const rare = String(Math.min(777, size)).padStart(5, '0')
    const calls: Call[] = [
      { name: 'keychain list', request: get('/api/keychains') },
      {
        name: 'keychain search, rare',
        request: get(`/api/keychains?q=${encodeURIComponent(`Logement ${rare}`)}`),
      },
      { name: 'keychain search, common', request: get('/api/keychains?q=Logement') },
      { name: 'tag list', request: get(`/api/organizations/${organization.organizationId}/tags`) },
      {
        name: 'tag search, rare',
        request: get(
          `/api/organizations/${organization.organizationId}/tags?q=${organization.codeOf(Math.min(777, size))}`,
        ),
      },
      {
        name: 'tag search, common',
        request: get(`/api/organizations/${organization.organizationId}/tags?q=Tag`),
      },
      { name: 'dashboard', request: get('/api/stats/dashboard') },
      { name: 'dashboard charts', request: get('/api/stats/dashboard/charts') },
      {
        name: 'scan',
        request: () =>
          fetch(`${base}/api/scans`, {
            method: 'POST',
            headers: {
              ...headers,
              origin: `http://localhost:${port}`,
              'content-type': 'application/json',
              'idempotency-key': randomUUID(),
            },
            body: JSON.stringify({ value: organization.codeOf(Math.min(500, size)) }),
          }),
      },
      { name: 'mirror page', request: get('/api/sync/changes?limit=500') },
    ]
    return {
      calls: calls.filter((each) => !ONLY || ONLY.some((name) => each.name.startsWith(name))),
      close,
    }
  } catch (error) {
    await close().catch(() => undefined)
    throw error
  }
}

type Figures = Record<string, { p50: number; p95: number }>

async function bench(kind: Database): Promise<Map<number, Figures>> {
  const running: Array<Awaited<ReturnType<typeof atSize>>> = []
  try {
    for (const size of SIZES) running.push(await atSize(kind, size))
    const bySize = new Map<number, Figures>(SIZES.map((size) => [size, {}]))
    for (const [index, call] of running[0]!.calls.entries()) {
      const figures = await measure(
        call.name,
        running.map((each) => each.calls[index]!),
      )
      for (const [at, size] of SIZES.entries()) bySize.get(size)![call.name] = figures[at]!
      console.log(
        `${kind} ${call.name}: ${SIZES.map((size, at) => `${size} ${figures[at]!.p50}`).join(', ')}`,
      )
    }
    return bySize
  } finally {
    await Promise.allSettled(running.map((each) => each.close()))
  }
}

function table(kind: Database, bySize: Map<number, Figures>) {
  const names = Object.keys(bySize.get(SIZES[0]!)!)
  const lines = [
    `| ${kind}: p50 ms | ${SIZES.join(' | ')} | largest ÷ smallest | ≤ ${RATIO_TARGET}× |`,
    `|---|${SIZES.map(() => '---').join('|')}|---|---|`,
  ]
  for (const name of names) {
    const values = SIZES.map((size) => bySize.get(size)![name]!.p50)
    const ratio = Math.round((values.at(-1)! / values[0]!) * 100) / 100
    lines.push(`| ${name} | ${values.join(' | ')} | ${ratio} | ${ratio <= RATIO_TARGET ? 'met' : 'MISSED'} |`)
  }
  return lines.join('\n')
}

const uptime = async () => (await promisify(execFile)('uptime')).stdout.trim()
const start = await uptime()
console.log(`${start}; sizes ${SIZES.join(', ')}; ${CALLS} calls each`)
const results: Record<string, Record<number, unknown>> = {}
const tables: string[] = []
for (const kind of DATABASES) {
  const bySize = await bench(kind)
  results[kind] = Object.fromEntries(bySize)
  tables.push(table(kind, bySize))
}
const end = await uptime()
console.log(`\n${tables.join('\n\n')}\n\nuptime at start: ${start}\nuptime at end: ${end}`)
await mkdir(join(root, 'bench/results'), { recursive: true })
const file = join(root, `bench/results/scale-${new Date().toISOString().replaceAll(':', '-')}.json`)
await writeFile(file, JSON.stringify({ uptime: { start, end }, calls: CALLS, results }, null, 2))
console.log(`results: ${file}`)
