// An A/B of two server variants (a bundle, Node flags, environment) on one seeded database, interleaved
// A B A B per target, for deciding on one change at a time (`npm run bench:api` compares against bare
// node:http). BENCH_A and BENCH_B are JSON `{ "bundle": "dist-server/a.mjs", "args": [...], "env": {...} }`;
// BENCH_DATABASE (postgres), BENCH_TARGETS (live,keychain,keychains,scan), BENCH_ROUNDS (3), BENCH_SECONDS (5),
// BENCH_KEYCHAINS (1000). Prints medians, their ratio B ÷ A, p99 and RSS after the load.
import { readdirSync, readFileSync } from 'node:fs'
import { type Database, freshDatabase, rssMiB, seed, startProduct } from './api/stack.ts'
import { ensureWrk, type Result, type Target, wrk } from './api/wrk.ts'

const root = new URL('..', import.meta.url).pathname
const KIND = (process.env.BENCH_DATABASE ?? 'postgres') as Database
const NAMES = (process.env.BENCH_TARGETS ?? 'live,keychain,keychains,scan').split(',')
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
const KEYCHAINS = Number(process.env.BENCH_KEYCHAINS ?? 1000)
const variants = { A: JSON.parse(process.env.BENCH_A ?? '{}'), B: JSON.parse(process.env.BENCH_B ?? '{}') }

/** CPU time (user + system, ms) of the process `pid`, and of the PostgreSQL backends serving `database`. */
const TICK_MS = 10
function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS
  } catch {
    return 0
  }
}
function backendsCpu(databaseName: string): Map<number, number> {
  const found = new Map<number, number>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(databaseName))
        found.set(Number(entry), cpuMs(Number(entry)))
    } catch {}
  }
  return found
}
function backendsDelta(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0
  for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0)
  return total
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

await ensureWrk()
const database = await freshDatabase(KIND, process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL)
try {
  const organization = await seed(database, KEYCHAINS)
  // PGlite's folder is one process's: the variants take turns on it.
  const both = KIND === 'postgres'
  const running: Partial<Record<'A' | 'B', Awaited<ReturnType<typeof startProduct>>>> = {}
  const start = async (name: 'A' | 'B') => {
    running[name] ??= await startProduct(database, root, variants[name])
    return running[name]!
  }
  const stop = async (name: 'A' | 'B') => {
    await running[name]?.stop()
    delete running[name]
  }
  const first = await start('A')
  const cookie = `session=${organization.fieldSession}`
  const keychainId = (
    await (await fetch(`${first.url}/api/keychains?limit=1`, { headers: { cookie } })).json()
  ).data[0].id as string
  const targetOf = (url: string): Record<string, Target> => ({
    live: { name: 'live', path: '/api/health/live' },
    keychain: { name: 'keychain', path: `/api/keychains/${keychainId}`, headers: { cookie } },
    keychains: { name: 'keychains', path: '/api/keychains', headers: { cookie } },
    scan: {
      name: 'scan',
      path: '/api/scans',
      method: 'POST',
      body: JSON.stringify({ value: organization.codeOf(7) }),
      headers: {
        cookie,
        origin: `http://localhost:${new URL(url).port}`,
        'content-type': 'application/json',
      },
    },
  })
  if (both) await start('B')
  const uptime = (await import('node:os')).loadavg()
  console.log(
    `load ${uptime.map((n) => n.toFixed(2)).join(' ')}; A=${JSON.stringify(variants.A)} B=${JSON.stringify(variants.B)}`,
  )
  for (const name of NAMES) {
    const runs: Record<'A' | 'B', Result[]> = { A: [], B: [] }
    const cost: Record<'A' | 'B', { node: number[]; pg: number[] }> = {
      A: { node: [], pg: [] },
      B: { node: [], pg: [] },
    }
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const variant of ['A', 'B'] as const) {
        if (!both) await stop(variant === 'A' ? 'B' : 'A')
        const server = await start(variant)
        const dbName = new URL(database.url || 'postgres://x/none').pathname.slice(1)
        const [nodeBefore, pgBefore] = [cpuMs(server.pid), backendsCpu(dbName)]
        const result = await wrk(server.url, targetOf(server.url)[name]!, SECONDS)
        const requests = result.requestsPerSecond * SECONDS
        cost[variant].node.push(((cpuMs(server.pid) - nodeBefore) * 1000) / requests)
        cost[variant].pg.push((backendsDelta(pgBefore, backendsCpu(dbName)) * 1000) / requests)
        runs[variant].push(result)
      }
    }
    const a = median(runs.A.map((run) => run.requestsPerSecond))
    const b = median(runs.B.map((run) => run.requestsPerSecond))
    const us = (values: number[]) => Math.round(median(values))
    console.log(
      `${name} CPU µs per request: node A ${us(cost.A.node)} B ${us(cost.B.node)}; PostgreSQL backends A ${us(cost.A.pg)} B ${us(cost.B.pg)}  [node A ${cost.A.node.map(Math.round).join(' ')} | B ${cost.B.node.map(Math.round).join(' ')}]`,
    )
    const errors = [...runs.A, ...runs.B].reduce((sum, run) => sum + run.non2xx, 0)
    console.log(
      `${name}: A ${Math.round(a)} req/s (p99 ${median(runs.A.map((r) => r.p99Ms))} ms), B ${Math.round(b)} req/s (p99 ${median(runs.B.map((r) => r.p99Ms))} ms) → B/A ${(b / a).toFixed(3)}  [A ${runs.A.map((r) => Math.round(r.requestsPerSecond)).join(' ')} | B ${runs.B.map((r) => Math.round(r.requestsPerSecond)).join(' ')}]${errors ? ` ${errors} non-2xx` : ''}`,
    )
  }
  for (const name of ['A', 'B'] as const)
    if (running[name]) console.log(`RSS ${name} after load: ${rssMiB(running[name]!.pid)} MiB`)
  await stop('A')
  await stop('B')
} finally {
  await database.drop()
}
