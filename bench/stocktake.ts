// npm run bench:stocktake — a stocktake at size (issue 40): 1,000 keychains at home on 20 boards of 50 hooks.
//   1. Scan → tally painted, offline in Chromium on a phone (360×740): a typed tag, from the Enter key to the
//      frame after the "Found" figure changed; BENCH_SCANS scans (default 60), interleaved with scans in a
//      stocktake of BENCH_SCANS + 1 keychains on 2 boards as the reference (the ratio says what size costs).
//      Target p95 ≤ 50 ms.
//   2. Closing it, on PGlite and on PostgreSQL (BENCH_DATABASE_URL or TEST_DATABASE_URL), interleaved, with
//      half the keychains found: BENCH_ROUNDS (default 3) each. Target ≤ 2 s.
// Needs a build (`npm run build`; BENCH_SKIP_BUILD=1 to keep dist/). Prints medians and p95 with the load
// average; writes bench/results/stocktake-<time>.json.

import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdir, writeFile } from 'node:fs/promises'
import { loadavg } from 'node:os'
import { promisify } from 'node:util'
import { eq, sql } from 'drizzle-orm'
import pg from 'pg'
import type { Page } from 'playwright-core'
import {
  hooks,
  keychains,
  keys,
  memberships,
  organizations,
  places,
  stocktakeItems,
  users,
} from '../server/db/schema.ts'
import { closeStocktake } from '../server/modules/stocktakes/close.ts'
import { startStocktake } from '../server/modules/stocktakes/start.ts'
import { type Stack, startStack } from '../tests/e2e/harness.ts'
import { storedTags } from '../tests/e2e/mirror.ts'
import { organizationOfNewAdmin } from '../tests/e2e/organizations.ts'

const root = new URL('..', import.meta.url).pathname
const SCANS = Number(process.env.BENCH_SCANS ?? 60)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const BOARDS = 20
const HOOKS_PER_BOARD = 50
const TARGETS = { scanP95Ms: 50, closeMs: 2000 }

const run = promisify(execFile)
const uptime = async () => (await run('uptime')).stdout.trim()
const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!
}
const round = (value: number) => Math.round(value * 10) / 10

/** A fresh PostgreSQL database for one stack, dropped after. */
async function postgresDatabase(): Promise<{ url: string; drop(): Promise<void> } | null> {
  const admin = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL
  if (!admin) return null
  const name = `trousseau_bench_${randomBytes(4).toString('hex')}`
  const query = async (statement: string) => {
    const client = new pg.Client({ connectionString: admin })
    await client.connect()
    await client.query(statement).finally(() => client.end())
  }
  await query(`CREATE DATABASE "${name}"`)
  const url = new URL(admin)
  url.pathname = `/${name}`
  return { url: url.toString(), drop: () => query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) }
}

type Scene = { organizationId: string; adminId: string; stocktakeId: string; tagCodes: string[] }

/** An organization and its admin written straight into the database. */
async function organizationInDatabase(stack: Stack, email: string, name: string): Promise<string> {
  const db = stack.deps.database.db
  const now = stack.deps.clock.now()
  const [user] = await db
    .insert(users)
    .values({ email, createdAt: now, lastSeenAt: now })
    .returning({ id: users.id })
  const [organization] = await db
    .insert(organizations)
    .values({
      name,
      addressLine1: '1 rue du Banc',
      city: 'Paris',
      postalCode: '75001',
      country: 'FR',
      createdAt: now,
    })
    .returning({ id: organizations.id })
  await db.insert(memberships).values({
    userId: user!.id,
    organizationId: organization!.id,
    role: 'ADMIN',
    status: 'ACTIVE',
    createdAt: now,
  })
  return organization!.id
}

/**
 * An organization with `count` keychains, each with one tag and a home on one of `boards` boards of 50 hooks,
 * written set-based (a seed, not a measure), and a stocktake of all of it started.
 */
async function scene(
  stack: Stack,
  admin: string,
  count: number,
  boards: number,
  options: { signedIn: boolean } = { signedIn: true },
): Promise<Scene> {
  const db = stack.deps.database.db
  const now = stack.deps.clock.now()
  // A phone signs in as this admin (through the real sign-in); the close alone needs no browser.
  const organizationId = options.signedIn
    ? await organizationOfNewAdmin(stack, admin, `Bench ${count}`, {
        line1: '1 rue du Banc',
        postalCode: '75001',
        city: 'Paris',
      })
    : await organizationInDatabase(stack, admin, `Bench ${count}`)
  const [adminRow] = await db.select({ id: users.id }).from(users).where(eq(users.email, admin))
  const [site] = await db
    .insert(places)
    .values({ organizationId, kind: 'SITE', name: 'Site', depth: 0, createdAt: now, updatedAt: now })
    .returning()
  const boardRows = await db
    .insert(places)
    .values(
      Array.from({ length: boards }, (_, index) => ({
        organizationId,
        parentId: site!.id,
        kind: 'BOARD' as const,
        name: `Board ${index + 1}`,
        depth: 1,
        publicId: randomBytes(10)
          .toString('hex')
          .slice(0, 16)
          .replace(/[0189]/g, 'a'),
        createdAt: now,
        updatedAt: now,
      })),
    )
    .returning()
  const hookRows = await db
    .insert(hooks)
    .values(
      boardRows.flatMap((board, b) =>
        Array.from({ length: HOOKS_PER_BOARD }, (_, index) => ({
          organizationId,
          placeId: board.id,
          code: `${String.fromCharCode(65 + (b % 26))}-${String(index + 1).padStart(2, '0')}`,
          position: index + 1,
          publicId: `h${randomBytes(8).toString('hex')}`.slice(0, 16).replace(/[0189]/g, 'b'),
          createdAt: now,
        })),
      ),
    )
    .returning()
  const tags = await stack.createTags(organizationId, { alphaCode: 'BEN', count, name: 'Bench' })
  const keychainRows = await db
    .insert(keychains)
    .values(
      tags.map((_, index) => ({
        organizationId,
        name: `Keychain ${index + 1}`,
        homeHookId: hookRows[index % hookRows.length]!.id,
        createdAt: now,
        updatedAt: now,
      })),
    )
    .returning({ id: keychains.id })
  await db.insert(keys).values(
    keychainRows.map((keychain, index) => ({
      keychainId: keychain.id,
      name: 'Tag',
      type: 'TAG' as const,
      tagId: tags[index]!.id,
      createdAt: now,
    })),
  )
  const started = await startStocktake(stack.deps, {
    organizationId,
    actorId: adminRow!.id,
    placeId: null,
  })
  return {
    organizationId,
    adminId: adminRow!.id,
    stocktakeId: started.id,
    tagCodes: tags.map((tag) => tag.code),
  }
}

/** Opens the stocktake on a phone, lets the mirror fill, cuts the network, and arms the timer of each scan. */
async function offlinePage(
  stack: Stack,
  email: string,
  found: Scene,
): Promise<{ page: Page; close(): Promise<void> }> {
  const context = await stack.newPhoneContext()
  const page = await context.newPage()
  await stack.signInByCode(page, email, 'en')
  await page.waitForURL((url) => url.pathname === '/en/app')
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready
  })
  let tags = 0
  for (let tries = 0; tries < 120 && tags < found.tagCodes.length; tries++) {
    tags = (await storedTags(page)).length
    if (tags < found.tagCodes.length) await page.waitForTimeout(500)
  }
  await page.goto(`/en/app/stocktakes/${found.stocktakeId}`)
  await page.getByLabel('Hook label or tag').waitFor()
  await page.waitForLoadState('networkidle')
  await context.setOffline(true)
  await page.evaluate(() => {
    const w = window as unknown as { __enter: number }
    addEventListener(
      'keydown',
      (event) => {
        if ((event as KeyboardEvent).key === 'Enter') w.__enter = performance.now()
      },
      true,
    )
  })
  return { page, close: () => context.close() }
}

/** One typed scan: ms from the Enter key to the frame after the "Found" figure changed. */
async function timedScan(page: Page, code: string): Promise<number> {
  const field = page.getByLabel('Hook label or tag')
  await field.fill(code)
  const changed = page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const found = [...document.querySelectorAll('[data-testid="tally"] div')].find((each) =>
          each.querySelector('dt')?.textContent?.startsWith('Found'),
        )!
        const observer = new MutationObserver(() => {
          observer.disconnect()
          requestAnimationFrame(() =>
            resolve(performance.now() - (window as unknown as { __enter: number }).__enter),
          )
        })
        observer.observe(found, { subtree: true, characterData: true, childList: true })
      }),
  )
  await field.press('Enter')
  return changed
}

async function scanBenchmark(): Promise<Record<string, unknown>> {
  const stack = await startStack()
  try {
    const big = await scene(stack, 'big.bench@example.com', BOARDS * HOOKS_PER_BOARD, BOARDS)
    const small = await scene(stack, 'small.bench@example.com', SCANS + 1, 2)
    const bigPage = await offlinePage(stack, 'big.bench@example.com', big)
    const smallPage = await offlinePage(stack, 'small.bench@example.com', small)
    const times = { big: [] as number[], small: [] as number[] }
    try {
      // Warm-up: the outbox module loads with the first scan.
      await timedScan(bigPage.page, big.tagCodes.at(-1)!)
      await timedScan(smallPage.page, small.tagCodes.at(-1)!)
      for (let index = 0; index < SCANS; index++) {
        times.big.push(await timedScan(bigPage.page, big.tagCodes[index]!))
        times.small.push(await timedScan(smallPage.page, small.tagCodes[index]!))
      }
    } finally {
      await bigPage.close()
      await smallPage.close()
    }
    return {
      scans: times.big.length,
      big: { p50: round(quantile(times.big, 0.5)), p95: round(quantile(times.big, 0.95)) },
      reference: {
        keychains: SCANS + 1,
        p50: round(quantile(times.small, 0.5)),
        p95: round(quantile(times.small, 0.95)),
      },
    }
  } finally {
    await stack.stop()
  }
}

/** Closes a 1,000-keychain stocktake with half of them found; ms. */
async function timedClose(databaseUrl: string | null): Promise<number> {
  const stack = await startStack(databaseUrl ? { DATABASE_URL: databaseUrl } : {})
  try {
    const found = await scene(
      stack,
      `close.${randomBytes(3).toString('hex')}@example.com`,
      BOARDS * HOOKS_PER_BOARD,
      BOARDS,
      { signedIn: false },
    )
    const db = stack.deps.database.db
    await db
      .update(stocktakeItems)
      .set({
        state: 'FOUND',
        foundAt: stack.deps.clock.now(),
        foundHookId: sql`${stocktakeItems.expectedHookId}`,
      })
      .where(
        sql`${stocktakeItems.stocktakeId} = ${found.stocktakeId} and ${stocktakeItems.keychainId} in (select keychain_id from stocktake_items where stocktake_id = ${found.stocktakeId} order by keychain_id limit 500)`,
      )
    const started = performance.now()
    await closeStocktake(stack.deps, {
      organizationId: found.organizationId,
      actorId: found.adminId,
      id: found.stocktakeId,
    })
    const took = performance.now() - started
    const [check] = await db
      .select({ missing: sql<number>`count(*) filter (where ${stocktakeItems.state} = 'MISSING')` })
      .from(stocktakeItems)
      .where(eq(stocktakeItems.stocktakeId, found.stocktakeId))
    if (Number(check!.missing) !== 500) throw new Error(`closed with ${check!.missing} missing, 500 expected`)
    return took
  } finally {
    await stack.stop()
  }
}

async function closeBenchmark(): Promise<Record<string, unknown>> {
  const times = { pglite: [] as number[], postgres: [] as number[] }
  for (let roundIndex = 0; roundIndex < ROUNDS; roundIndex++) {
    times.pglite.push(await timedClose(null))
    const database = await postgresDatabase()
    if (database) {
      try {
        times.postgres.push(await timedClose(database.url))
      } finally {
        await database.drop()
      }
    }
    console.log(
      `close round ${roundIndex + 1}: PGlite ${round(times.pglite.at(-1)!)} ms, PostgreSQL ${times.postgres.length ? `${round(times.postgres.at(-1)!)} ms` : 'not measured (no database URL)'}; load ${loadavg()[0]!.toFixed(2)}`,
    )
  }
  const summary = (values: number[]) =>
    values.length
      ? { median: round(quantile(values, 0.5)), max: round(Math.max(...values)), runs: values.map(round) }
      : null
  return { pglite: summary(times.pglite), postgres: summary(times.postgres) }
}

async function main() {
  if (!process.env.BENCH_SKIP_BUILD) await run('npm', ['run', 'build'], { cwd: root })
  const startedAt = await uptime()
  console.log(`uptime at start: ${startedAt}`)
  const scan = await scanBenchmark()
  console.log(`scan → tally painted, offline, 1,000 keychains: ${JSON.stringify(scan)}`)
  const close = await closeBenchmark()
  console.log(`close of 1,000 keychains (500 found): ${JSON.stringify(close)}`)
  const endedAt = await uptime()
  const big = scan.big as { p95: number }
  const verdicts = [
    `${big.p95 <= TARGETS.scanP95Ms ? 'PASS' : 'MISS'} scan → tally p95 ${big.p95} ms (target ≤ ${TARGETS.scanP95Ms})`,
    ...(['pglite', 'postgres'] as const).map((kind) => {
      const figures = close[kind] as { max: number } | null
      return figures
        ? `${figures.max <= TARGETS.closeMs ? 'PASS' : 'MISS'} close on ${kind}: slowest ${figures.max} ms (target ≤ ${TARGETS.closeMs})`
        : `---- close on ${kind}: not measured`
    }),
  ]
  console.log(verdicts.join('\n'))
  console.log(`uptime at end: ${endedAt}`)
  await mkdir(`${root}bench/results`, { recursive: true })
  const file = `${root}bench/results/stocktake-${new Date().toISOString().replace(/[:.]/g, '-')}.json`
  await writeFile(file, JSON.stringify({ startedAt, endedAt, scan, close, verdicts }, null, 2))
  console.log(`Results: ${file}`)
  process.exit(0)
}

await main()
