// npm run bench:api — requests per second of one server process against the limit of one Node process here:
// a bare node:http hello-world (A) and the product as production runs it (B), interleaved A B A B for each
// target, on PostgreSQL and on PGlite; ratios, p99 and resident memory (idle, and after the load).
// BENCH_DATABASES (postgres,pglite), BENCH_TARGETS (live,keychain,keychains,scan), BENCH_ROUNDS (3),
// BENCH_SECONDS (10), BENCH_KEYCHAINS (1000);
// PostgreSQL from BENCH_DATABASE_URL or TEST_DATABASE_URL (a fresh database, dropped after). Needs `wrk` and
// a build (`npm run build`; BENCH_BUNDLE names another server bundle under the root, e.g. one built for a
// change without replacing the shared `dist-server/server.mjs`; BENCH_NODE_ARGS adds node options to its
// process, e.g. a V8 flag to compare). Results: bench/results/api-<time>.json.
import { execFile } from 'node:child_process'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { type Database, freshDatabase, rssMiB, seed, startBare, startProduct } from './api/stack.ts'
import { ensureWrk, type Result, type Target, wrk } from './api/wrk.ts'

const root = new URL('..', import.meta.url).pathname
const DATABASES = (process.env.BENCH_DATABASES ?? 'postgres,pglite').split(',') as Database[]
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const KEYCHAINS = Number(process.env.BENCH_KEYCHAINS ?? 1000)
const BUNDLE = process.env.BENCH_BUNDLE
/** Node options for the product's process (e.g. a V8 flag to compare), before the bundle. */
const NODE_ARGS = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean)
/** Only these targets (e.g. `scan`), for a change that concerns one; all by default. */
const ONLY = process.env.BENCH_TARGETS?.split(',')

/** The issue's targets: product ÷ bare req/s at least, p99 of reads at most. */
const TARGETS: Record<Database, Record<string, number>> = {
  postgres: { live: 0.5, keychain: 0.05, keychains: 0.04, scan: 0.012 },
  pglite: { keychain: 0.015, scan: 0.004 },
}
const READ_P99_MS = 50
const RSS_TARGETS = { idle: 150, loaded: 250 }

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
const uptime = async () => (await promisify(execFile)('uptime')).stdout.trim()

async function benchDatabase(kind: Database) {
  const database = await freshDatabase(kind, process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL)
  try {
    const organization = await seed(database, KEYCHAINS)
    const product = await startProduct(database, root, {
      ...(BUNDLE ? { bundle: BUNDLE } : {}),
      ...(NODE_ARGS ? { args: NODE_ARGS } : {}),
    })
    const bare = await startBare()
    try {
      const cookie = `session=${organization.fieldSession}`
      const keychainId = (
        await (await fetch(`${product.url}/api/keychains?limit=1`, { headers: { cookie } })).json()
      ).data[0].id as string
      await new Promise((resolve) => setTimeout(resolve, 5000))
      const idleRss = rssMiB(product.pid)
      const signedIn = { cookie }
      const targets: Target[] = [
        { name: 'live', path: '/api/health/live' },
        { name: 'keychain', path: `/api/keychains/${keychainId}`, headers: signedIn },
        { name: 'keychains', path: '/api/keychains', headers: signedIn },
        {
          name: 'scan',
          path: '/api/scans',
          method: 'POST',
          body: JSON.stringify({ value: organization.codeOf(7) }),
          headers: {
            ...signedIn,
            origin: new URL(product.url.replace('127.0.0.1', 'localhost')).origin.replace(
              /:\d+$/,
              `:${new URL(product.url).port}`,
            ),
            'content-type': 'application/json',
          },
        },
      ]
      const rows = []
      for (const target of targets.filter((each) => !ONLY || ONLY.includes(each.name))) {
        const runs: { bare: Result[]; product: Result[] } = { bare: [], product: [] }
        for (let round = 0; round < ROUNDS; round += 1) {
          runs.bare.push(await wrk(bare.url, { name: 'bare', path: '/' }, SECONDS))
          runs.product.push(await wrk(product.url, target, SECONDS))
        }
        const productRate = median(runs.product.map((run) => run.requestsPerSecond))
        const bareRate = median(runs.bare.map((run) => run.requestsPerSecond))
        const row = {
          target: target.name,
          product: Math.round(productRate),
          bare: Math.round(bareRate),
          ratio: Math.round((productRate / bareRate) * 10000) / 10000,
          p99Ms: median(runs.product.map((run) => run.p99Ms)),
          non2xx: runs.product.reduce((sum, run) => sum + run.non2xx, 0),
          runs,
        }
        console.log(
          `${kind} ${target.name}: ${row.product} req/s vs bare ${row.bare} → ${row.ratio}×, p99 ${row.p99Ms} ms${row.non2xx ? `, ${row.non2xx} non-2xx` : ''}`,
        )
        rows.push(row)
      }
      return { database: kind, idleRss, loadedRss: rssMiB(product.pid), rows }
    } finally {
      await bare.stop()
      await product.stop()
    }
  } finally {
    await database.drop()
  }
}

function report(results: Awaited<ReturnType<typeof benchDatabase>>[]) {
  const lines = [
    '| database | target | product req/s | bare req/s | ratio | target | p99 ms | verdict |',
    '|---|---|---|---|---|---|---|---|',
  ]
  for (const result of results) {
    for (const row of result.rows) {
      const target = TARGETS[result.database][row.target]
      const read = row.target !== 'scan' && row.target !== 'live' && result.database === 'postgres'
      const verdicts = [
        target === undefined ? '' : row.ratio >= target ? 'met' : 'MISSED',
        read ? (row.p99Ms <= READ_P99_MS ? `p99 met` : `p99 MISSED`) : '',
        row.non2xx > 0 ? `${row.non2xx} non-2xx` : '',
      ].filter(Boolean)
      lines.push(
        `| ${result.database} | ${row.target} | ${row.product} | ${row.bare} | ${row.ratio} | ${target ?? '—'} | ${row.p99Ms} | ${verdicts.join(', ') || '—'} |`,
      )
    }
    const rss =
      result.database === 'postgres' ? ` (targets ${RSS_TARGETS.idle} / ${RSS_TARGETS.loaded} MiB)` : ''
    lines.push(
      `| ${result.database} | RSS idle / after load | ${result.idleRss} MiB | | | | | ${result.loadedRss} MiB${rss} |`,
    )
  }
  return lines.join('\n')
}

await ensureWrk()
const start = await uptime()
console.log(`${start}; ${ROUNDS} rounds of ${SECONDS} s, 64 connections, ${KEYCHAINS} keychains`)
const results = []
for (const kind of DATABASES) results.push(await benchDatabase(kind))
const end = await uptime()
const table = report(results)
console.log(`\n${table}\n\nuptime at start: ${start}\nuptime at end: ${end}`)
await mkdir(join(root, 'bench/results'), { recursive: true })
const file = join(root, `bench/results/api-${new Date().toISOString().replaceAll(':', '-')}.json`)
await writeFile(
  file,
  JSON.stringify({ uptime: { start, end }, rounds: ROUNDS, seconds: SECONDS, results }, null, 2),
)
console.log(`results: ${file}`)
