// npm run bench:sync — the field mirror at size: one organization with 100,000 tags and 20,000 keychains
// (BENCH_TAGS, BENCH_KEYCHAINS), synced into Debian's Chromium from the real server on loopback.
// Measured: the first full sync (time, requests, bytes, IndexedDB size), an incremental sync with no change
// and with 10 changes (bytes, requests), the IndexedDB size once settled (BENCH_SETTLE_MS), and offline
// typed-code scans (p50/p95, 20 each), interleaved with the
// same scans in a small organization (100 tags) as the reference: the ratio says what size costs.
// PostgreSQL when BENCH_DATABASE_URL (or TEST_DATABASE_URL) names a server (a fresh database is made and
// dropped), else PGlite in a temp folder. Results: bench/results/sync-<time>.json.

import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import pg from 'pg'
import { type BrowserContext, chromium, type Page } from 'playwright-core'
import { loadConfig } from '../server/config.ts'
import { createLogger } from '../server/logger.ts'
import { startServer } from '../server/main.ts'
import { updateKeychain } from '../server/modules/keychains/service.ts'
import { CHROMIUM_ARGS, productionEnv } from '../tests/e2e/harness.ts'
import { startMailbox } from '../tests/e2e/mailbox.ts'
import { freePort } from '../tests/server/processes.ts'
import {
  indexedDbBytes,
  markScanStarts,
  storeCounts,
  syncState,
  timedScan,
  waitForSync,
  watchFeed,
} from './sync/browser.ts'
import { type SeededOrganization, seedOrganization } from './sync/seed.ts'

const root = new URL('..', import.meta.url).pathname
const TAGS = Number(process.env.BENCH_TAGS ?? 100_000)
const KEYCHAINS = Number(process.env.BENCH_KEYCHAINS ?? 20_000)
const SCANS = Number(process.env.BENCH_SCANS ?? 20)
/** A phone syncs once and scans later: IndexedDB compacts what the sync wrote meanwhile. */
const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 30_000)
const TARGETS = {
  fullSyncMs: 60_000,
  indexedDbMB: 60,
  idleBytes: 5_000,
  idleRequests: 1,
  tenChangesBytes: 20_000,
  scanP95Ms: 50,
}

const uptime = async () => (await promisify(execFile)('uptime')).stdout.trim()
const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!
}
const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits

async function database(): Promise<{ url: string | null; drop(): Promise<void> }> {
  const admin = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL
  if (!admin) return { url: null, drop: async () => {} }
  const name = `trousseau_bench_${randomBytes(4).toString('hex')}`
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: admin })
    await client.connect()
    await client.query(statement).finally(() => client.end())
  }
  await run(`CREATE DATABASE "${name}"`)
  const url = new URL(admin)
  url.pathname = `/${name}`
  return { url: url.toString(), drop: () => run(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) }
}

async function fieldPage(context: BrowserContext, baseUrl: string, organization: SeededOrganization) {
  await context.addCookies([{ name: 'session', value: organization.fieldSession, url: baseUrl }])
  return context.newPage()
}

async function main() {
  const dataDir = await mkdtemp(join(tmpdir(), 'trousseau-bench-sync-'))
  const db = await database()
  const mailbox = await startMailbox()
  const port = await freePort()
  const config = loadConfig({
    ...productionEnv({ port, dataDir, smtpUrl: mailbox.url, staticDir: join(root, 'dist') }),
    ...(db.url ? { DATABASE_URL: db.url } : {}),
  })
  const server = await startServer(config, createLogger('warn'))
  const baseUrl = server.url.replace('127.0.0.1', 'localhost')
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS })
  const startUptime = await uptime()
  console.log(
    `database: ${db.url ? 'PostgreSQL' : 'PGlite'}; ${TAGS} tags, ${KEYCHAINS} keychains; ${startUptime}`,
  )
  try {
    const seedStart = performance.now()
    const big = await seedOrganization(server.deps, 'BG', {
      tags: TAGS,
      keychains: KEYCHAINS,
      transfers: 200,
    })
    const small = await seedOrganization(server.deps, 'SM', { tags: 100, keychains: 20, transfers: 5 })
    console.log(`seeded in ${round((performance.now() - seedStart) / 1000)} s`)

    // First full sync: from opening /app (signed in, empty device) until the mirror holds the organization.
    const bigContext = await browser.newContext({ baseURL: baseUrl, viewport: { width: 412, height: 915 } })
    const page = await fieldPage(bigContext, baseUrl, big)
    const feed = await watchFeed(bigContext, page)
    const opened = performance.now()
    await page.goto('/app')
    const first = await waitForSync(page, 0, 10 * 60_000)
    const fullSyncMs = performance.now() - opened
    const full = {
      ms: round(fullSyncMs, 0),
      requests: feed.requests,
      bytes: feed.bytes,
      rows: await storeCounts(page),
    }
    const storage = await indexedDbBytes(page)
    console.log(
      `full sync: ${round(fullSyncMs / 1000)} s, ${full.requests} requests, ${round(full.bytes / 1e6, 2)} MB on the wire, rows ${JSON.stringify(full.rows)}, IndexedDB ${storage.indexedDB === null ? 'n/a' : `${round(storage.indexedDB / 1e6)} MB`}`,
    )

    // Reference for the full sync: the same pages fetched in the page without writing them anywhere.
    const fetchOnlyMs = await page.evaluate(async () => {
      const start = performance.now()
      let cursor: string | null = null
      for (;;) {
        const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''
        const answer: { cursor: string; more: boolean } = await (
          await fetch(`/api/sync/changes?limit=2000${query}`)
        ).json()
        cursor = answer.cursor
        if (!answer.more) return performance.now() - start
      }
    })
    console.log(`reference (fetch the same pages, write nothing): ${round(fetchOnlyMs / 1000)} s`)

    // An incremental sync with nothing new, then with 10 keychains renamed by the office.
    // Right after a sync of the app's own 30-second timer, so that the next one cannot fall in the measurement.
    const sync = async (change: () => Promise<void> = async () => {}) => {
      await waitForSync(page, (await syncState(page))?.syncedAt ?? 0, 60_000)
      await change()
      const before = (await syncState(page))?.syncedAt ?? 0
      feed.reset()
      await page.evaluate(() => window.dispatchEvent(new Event('focus')))
      await waitForSync(page, before, 60_000)
      await page.waitForTimeout(300)
      return { requests: feed.requests, bytes: feed.bytes }
    }
    await page.waitForTimeout(500)
    const idle = await sync()
    console.log(`incremental, no change: ${idle.requests} request(s), ${idle.bytes} bytes`)
    const ten = await sync(async () => {
      const renamed = await server.deps.database.db.execute(
        `select id from keychains where organization_id = '${big.organizationId}' order by name limit 10` as never,
      )
      for (const row of (renamed as unknown as { rows: { id: string }[] }).rows) {
        await updateKeychain(server.deps, {
          organizationId: big.organizationId,
          actorId: big.adminUserId,
          id: row.id,
          update: { name: `Renommé ${row.id.slice(0, 8)}` },
        })
      }
    })
    console.log(`incremental, 10 keychains renamed: ${ten.requests} request(s), ${ten.bytes} bytes`)

    await page.waitForTimeout(SETTLE_MS)
    const settled = await indexedDbBytes(page)
    console.log(
      `IndexedDB ${SETTLE_MS / 1000} s later: ${settled.indexedDB === null ? 'n/a' : `${round(settled.indexedDB / 1e6)} MB`}`,
    )

    // Offline scans, interleaved with the small organization's (reference).
    const smallContext = await browser.newContext({ baseURL: baseUrl, viewport: { width: 412, height: 915 } })
    const smallPage = await fieldPage(smallContext, baseUrl, small)
    await smallPage.goto('/app')
    await waitForSync(smallPage, 0, 60_000)
    const ready = async (context: BrowserContext, each: Page) => {
      await each.evaluate(async () => {
        await navigator.serviceWorker.ready
      })
      await each.goto('/app/scan')
      await each.getByLabel("Code ou lien de l'étiquette").waitFor()
      await context.setOffline(true)
      await each.reload()
      await each.getByTestId('offline-banner').waitFor()
      if (await each.evaluate(() => navigator.onLine)) throw new Error('the page still says it is online')
      await markScanStarts(each)
    }
    await feed.stop()
    await ready(bigContext, page)
    await ready(smallContext, smallPage)
    const bigTimes: number[] = []
    const smallTimes: number[] = []
    const seen = new Set<number>()
    const pick = (tagged: number) => {
      for (;;) {
        const n = 1 + Math.floor(Math.random() * tagged)
        if (!seen.has(n)) {
          seen.add(n)
          return n
        }
      }
    }
    for (let index = 0; index < SCANS; index += 1) {
      const n = pick(Math.min(TAGS, KEYCHAINS * 3))
      bigTimes.push(await timedScan(page, big.codeOf(n), big.keychainOf(n)!))
      // One tag of each of the small organization's keychains in turn: every scan paints another keychain.
      const m = 1 + 3 * (index % 20)
      smallTimes.push(await timedScan(smallPage, small.codeOf(m), small.keychainOf(m)!))
    }
    const scans = {
      big: { p50: round(quantile(bigTimes, 0.5)), p95: round(quantile(bigTimes, 0.95)) },
      small: { p50: round(quantile(smallTimes, 0.5)), p95: round(quantile(smallTimes, 0.95)) },
    }
    console.log(
      `offline scan at ${TAGS} tags: p50 ${scans.big.p50} ms, p95 ${scans.big.p95} ms; at 100 tags (reference): p50 ${scans.small.p50} ms, p95 ${scans.small.p95} ms; p95 ratio ${round(scans.big.p95 / scans.small.p95, 2)}`,
    )

    const endUptime = await uptime()
    const verdicts = {
      fullSync: full.ms <= TARGETS.fullSyncMs,
      indexedDb: settled.indexedDB !== null && settled.indexedDB / 1e6 <= TARGETS.indexedDbMB,
      idle: idle.bytes <= TARGETS.idleBytes && idle.requests <= TARGETS.idleRequests,
      tenChanges: ten.bytes <= TARGETS.tenChangesBytes,
      scan: scans.big.p95 <= TARGETS.scanP95Ms,
    }
    console.log(
      `targets: ${Object.entries(verdicts)
        .map(([name, ok]) => `${name} ${ok ? 'met' : 'MISSED'}`)
        .join(', ')}`,
    )
    console.log(
      `uptime at end: ${endUptime}; loadavg ${loadavg()
        .map((value) => round(value, 2))
        .join(' ')}`,
    )
    await mkdir(join(root, 'bench/results'), { recursive: true })
    const file = join(root, `bench/results/sync-${new Date().toISOString().replaceAll(':', '-')}.json`)
    await writeFile(
      file,
      JSON.stringify(
        {
          database: db.url ? 'postgres' : 'pglite',
          sizes: { tags: TAGS, keychains: KEYCHAINS },
          uptime: { start: startUptime, end: endUptime },
          full,
          storage,
          fetchOnlyMs: round(fetchOnlyMs, 0),
          firstState: first,
          idle,
          ten,
          scans,
          bigTimes,
          smallTimes,
          targets: TARGETS,
          verdicts,
        },
        null,
        2,
      ),
    )
    console.log(`results: ${file}`)
  } finally {
    await browser.close()
    await server.close()
    await mailbox.close()
    await db.drop()
    await rm(dataDir, { recursive: true, force: true })
  }
}

await main()
