// npm run bench:export — the activity log's CSV export of a large organization, and the server's memory while
// it streams: 100,000 entries (BENCH_ENTRIES) in one organization's log, exported whole and as a small view
// (one kind, 1 % of them), on PostgreSQL and on PGlite (BENCH_DATABASES). The product runs as production runs
// it (`dist-server/server.mjs`; needs `npm run build`); its resident memory is sampled every 20 ms. Flat
// memory means the whole export's peak is about the small view's, far below the size of the file it sent.
// PostgreSQL from BENCH_DATABASE_URL or TEST_DATABASE_URL (a fresh database, dropped after). BENCH_HEAP_MIB caps
// the server's old space (`--max-old-space-size`): an export held in memory fails under a cap below its size.
import { execFile } from 'node:child_process'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { sql } from 'drizzle-orm'
import { loadConfig } from '../server/config.ts'
import { openDatabase } from '../server/db/client.ts'
import { type Database, freshDatabase, rssMiB, SESSION_SECRET, seed, startProduct } from './api/stack.ts'

const root = new URL('..', import.meta.url).pathname
const DATABASES = (process.env.BENCH_DATABASES ?? 'postgres,pglite').split(',') as Database[]
const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 100_000)
const SMALL_KIND = 'member.invited'
const HEAP_MIB = process.env.BENCH_HEAP_MIB

/** Appends `count` entries to the organization's log in one statement (1 % of them SMALL_KIND). */
async function fillLog(database: { dataDir: string; url: string }, organizationId: string, count: number) {
  const config = loadConfig({ DATA_DIR: database.dataDir, DATABASE_URL: database.url, SESSION_SECRET })
  const opened = await openDatabase(config)
  try {
    // The export does not verify the chain: a placeholder hash keeps the seeding to one statement.
    await opened.db.execute(sql`
      with start as (
        select coalesce(max(seq), 0) as last from organization_events where organization_id = ${organizationId}
      )
      insert into organization_events
        (organization_id, seq, kind, actor_id, client_time, server_time, from_queue, keychain_ids, tag_ids,
         transfer_ids, payload, hash)
      select ${organizationId}, start.last + n,
        case when n % 100 = 0 then ${SMALL_KIND} else 'keychain.updated' end,
        null, null, now() - make_interval(secs => ${count} - n), n % 3 = 0,
        array[gen_random_uuid()], '{}', '{}',
        jsonb_build_object('name', jsonb_build_object('from', 'Appartement ' || n, 'to', 'Appartement ' || n || ' bis')),
        md5(n::text)
      from start, generate_series(1, ${count}) as n`)
    await opened.db.execute(sql`
      update organization_event_counters set last_seq = (select max(seq) from organization_events
        where organization_id = ${organizationId}) where organization_id = ${organizationId}`)
  } finally {
    await opened.close()
  }
}

type Export = { view: string; rows: number; mib: number; seconds: number; idleRss: number; peakRss: number }

async function exportView(
  url: string,
  pid: number,
  cookie: string,
  view: string,
  query: string,
): Promise<Export> {
  const idleRss = rssMiB(pid)
  let peakRss = idleRss
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, rssMiB(pid))
  }, 20)
  const started = performance.now()
  const response = await fetch(`${url}/api/activity/export${query}`, { headers: { cookie } })
  if (!response.ok || !response.body) throw new Error(`export answered ${response.status}`)
  let bytes = 0
  let lines = 0
  for await (const chunk of response.body) {
    bytes += chunk.length
    for (const byte of chunk) if (byte === 10) lines += 1
  }
  const seconds = (performance.now() - started) / 1000
  clearInterval(sampler)
  peakRss = Math.max(peakRss, rssMiB(pid))
  // Less the header and the signed head's row.
  return { view, rows: lines - 2, mib: bytes / 1024 / 1024, seconds, idleRss, peakRss }
}

async function benchDatabase(kind: Database) {
  const database = await freshDatabase(kind, process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL)
  try {
    const organization = await seed(database, 100)
    await fillLog(database, organization.organizationId, ENTRIES)
    const product = await startProduct(database, root, {
      args: HEAP_MIB ? [`--max-old-space-size=${HEAP_MIB}`] : [],
    })
    try {
      const cookie = `session=${organization.adminSession}`
      await new Promise((resolve) => setTimeout(resolve, 3000))
      // Small view first, then the whole log, then the small view again (what the heap kept after the big one).
      const results: Export[] = []
      results.push(
        await exportView(product.url, product.pid, cookie, `${SMALL_KIND} only`, `?kind=${SMALL_KIND}`),
      )
      results.push(await exportView(product.url, product.pid, cookie, 'whole log', ''))
      results.push(
        await exportView(
          product.url,
          product.pid,
          cookie,
          `${SMALL_KIND} only, again`,
          `?kind=${SMALL_KIND}`,
        ),
      )
      return results.map((result) => ({ database: kind, ...result }))
    } finally {
      await product.stop()
    }
  } finally {
    await database.drop()
  }
}

const uptime = async () => (await promisify(execFile)('uptime')).stdout.trim()
const start = await uptime()
console.log(
  `${start}; ${ENTRIES.toLocaleString('en')} entries in the log${HEAP_MIB ? `; old space capped at ${HEAP_MIB} MiB` : ''}`,
)
const rows = []
for (const kind of DATABASES) rows.push(...(await benchDatabase(kind)))
console.log(
  '\n| database | view | rows | CSV MiB | seconds | RSS before MiB | peak RSS MiB | peak − before |',
)
console.log('|---|---|---:|---:|---:|---:|---:|---:|')
for (const row of rows)
  console.log(
    `| ${row.database} | ${row.view} | ${row.rows.toLocaleString('en')} | ${row.mib.toFixed(1)} | ${row.seconds.toFixed(2)} | ${row.idleRss} | ${row.peakRss} | ${row.peakRss - row.idleRss} |`,
  )
const end = await uptime()
console.log(`\n${end}`)
await mkdir(join(root, 'bench/results'), { recursive: true })
const file = join(root, `bench/results/export-${new Date().toISOString().replace(/[:.]/g, '-')}.json`)
await writeFile(file, JSON.stringify({ start, end, entries: ENTRIES, rows }, null, 2))
console.log(`Results: ${file}`)
