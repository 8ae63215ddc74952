// Web benchmark: `npm run bench:web`. Builds the app, serves it with the real server in production mode (the
// demo organization seeded, the demo admin signed in through the API), and runs Lighthouse (mobile, simulated
// slow 4G and 4x CPU) on the public and the signed-in pages, in a fresh Chromium profile each time. Each round
// runs a bare static reference page first, then every page: the reference's score tells what this machine
// allows. Prints the medians as a markdown table, the verdicts against the targets, the failing accessibility
// audits and the largest performance issues; writes everything to bench/results/web-<timestamp>.json.
// Exits 0 when targets are missed (it measures); non-zero only when it could not measure.
//
//   BENCH_RUNS=1                  rounds (default 3; the medians are over the rounds)
//   BENCH_PAGES=/app,/en/app      only these pages
//   BENCH_SKIP_BUILD=1            measure the dist/ already there
//   BENCH_SAVE_LHR=1              also keep every full Lighthouse report next to the JSON
//   BENCH_COMPARE=/other/checkout A/B: each page is also measured on that checkout's built dist/ (served by this
//                                 tree's server), right after this tree's run of it; its rows are labelled "@compare"
import { execFile, spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { mkdir, readdir, stat, writeFile } from 'node:fs/promises'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import type { Flags, Result } from 'lighthouse'
import lighthouse from 'lighthouse'
import { chromium as playwright } from 'playwright-core'
import { launchChromium, stopAllChromium } from './web/chromium.ts'
import {
  failedRun,
  markdownTable,
  median,
  mediansOf,
  type PageMedians,
  type PageSpec,
  type RunSummary,
  summarize,
  type Verdict,
  verdictsOf,
} from './web/report.ts'
import { type ReferenceServer, type Stack, startReference, startStack } from './web/stack.ts'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const PUBLIC_TARGET = 95
const SIGNED_IN_TARGET = 90
const SIGNED_IN = { signedIn: true, perfTarget: SIGNED_IN_TARGET, tbtTargetMs: 200, lowestRunTarget: 88 }

const PAGES: PageSpec[] = [
  { path: '/', signedIn: false, perfTarget: PUBLIC_TARGET },
  { path: '/en', signedIn: false, perfTarget: PUBLIC_TARGET },
  { path: '/sign-in', signedIn: false, perfTarget: PUBLIC_TARGET },
  { path: '/en/sign-in', signedIn: false, perfTarget: PUBLIC_TARGET },
  { path: '/app', ...SIGNED_IN },
  { path: '/en/app', ...SIGNED_IN },
  { path: '/app/scan', ...SIGNED_IN },
  { path: '/en/app/scan', ...SIGNED_IN },
  { path: '/app/keychains', ...SIGNED_IN },
  { path: '/en/app/keychains', ...SIGNED_IN },
]
const REFERENCE_LABEL = 'reference (static HTML)'

function selectedPages(): PageSpec[] {
  const wanted = (process.env.BENCH_PAGES ?? '')
    .split(',')
    .map((path) => path.trim())
    .filter(Boolean)
  if (wanted.length === 0) return PAGES
  return wanted.map((path) => {
    const normalized = path.startsWith('/') ? path : `/${path}`
    const known = PAGES.find((page) => page.path === normalized)
    if (known) return known
    const signedIn = /^(\/en)?\/app(\/|$)/.test(normalized)
    return signedIn
      ? { path: normalized, ...SIGNED_IN }
      : { path: normalized, signedIn, perfTarget: PUBLIC_TARGET }
  })
}

function positiveInteger(name: string, fallback: number): number {
  const raw = process.env[name]
  if (!raw) return fallback
  const value = Number(raw)
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`${name} must be a positive integer, not "${raw}"`)
  return value
}

async function uptime(): Promise<string> {
  try {
    return (await promisify(execFile)('uptime')).stdout.trim()
  } catch {
    return `load average: ${loadavg()
      .map((value) => value.toFixed(2))
      .join(', ')}`
  }
}

/** `npm run build` (whatever the project's build grew into), or Vite alone when there is no build script. */
async function build(): Promise<void> {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    scripts?: Record<string, string>
  }
  const npmCli = process.env.npm_execpath
  const [command, args, shown] = pkg.scripts?.build
    ? npmCli && /\.[cm]?js$/.test(npmCli)
      ? [process.execPath, [npmCli, 'run', 'build'], 'npm run build']
      : ['npm', ['run', 'build'], 'npm run build']
    : [
        process.execPath,
        ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'],
        'vite build --logLevel warn',
      ]
  console.log(`Building: ${shown}`)
  const started = Date.now()
  const output: string[] = []
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')))
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')))
    child.once('error', reject)
    child.once('close', resolve)
  })
  if (code !== 0) {
    const tail = output.join('').split('\n').slice(-60).join('\n')
    throw new Error(`${shown} failed (exit ${code}):\n${tail}`)
  }
  console.log(`Built in ${((Date.now() - started) / 1000).toFixed(1)} s`)
}

/**
 * A digest of dist/ (names, sizes, modification times): others may rebuild it while the benchmark runs, and
 * the numbers then mix two builds.
 */
async function distFingerprint(): Promise<string> {
  const dist = join(ROOT, 'dist')
  const hash = createHash('sha256')
  try {
    const entries = (await readdir(dist, { recursive: true })).sort()
    for (const entry of entries) {
      const info = await stat(join(dist, entry))
      if (info.isFile()) hash.update(`${entry}\0${info.size}\0${info.mtimeMs}\n`)
    }
  } catch {
    return 'missing'
  }
  return hash.digest('hex').slice(0, 12)
}

type Target = { label: string; url: string; cookie?: string }

/**
 * Signs the browser in: the session cookie goes in its cookie jar, which Lighthouse's storage reset leaves alone.
 * (An `extraHeaders` Cookie reaches the page's own request but not the app's `fetch` of /api/profile, so the
 * signed-in pages measured the sign-in page they were sent to.)
 */
async function putSessionCookie(port: number, url: string, cookie: string): Promise<void> {
  const browser = await playwright.connectOverCDP(`http://127.0.0.1:${port}`)
  try {
    const [name, ...value] = cookie.split(';')[0]!.split('=')
    await browser
      .contexts()[0]!
      .addCookies([{ name: name!, value: value.join('='), url: new URL(url).origin }])
  } finally {
    await browser.close()
  }
}

async function measure(target: Target, round: number, saveTo: string | undefined): Promise<RunSummary> {
  const run = {
    label: target.label,
    url: target.url,
    round,
    startedAt: new Date().toISOString(),
    durationMs: 0,
    loadAverage: loadavg().map((value) => Math.round(value * 100) / 100),
  }
  const started = Date.now()
  const chromium = await launchChromium()
  try {
    const flags: Flags = {
      port: chromium.port,
      hostname: '127.0.0.1',
      output: 'json',
      logLevel: 'error',
      formFactor: 'mobile',
      throttlingMethod: 'simulate',
      onlyCategories: ['performance', 'accessibility'],
    }
    if (target.cookie) await putSessionCookie(chromium.port, target.url, target.cookie)
    const result = await lighthouse(target.url, flags)
    if (!result) throw new Error('Lighthouse returned no result')
    const lhr: Result = result.lhr
    if (saveTo) {
      const name = `${target.label.replace(/[^a-z0-9]+/gi, '_').replace(/^_+|_+$/g, '') || 'root'}-${round}.json`
      await writeFile(join(saveTo, name), JSON.stringify(lhr))
    }
    return summarize(lhr, { ...run, durationMs: Date.now() - started })
  } catch (error) {
    return failedRun({ ...run, durationMs: Date.now() - started }, error)
  } finally {
    await chromium.stop()
  }
}

function progressLine(total: number, index: number, run: RunSummary): string {
  const head = `[${String(index).padStart(String(total).length)}/${total}] round ${run.round} ${run.label}`
  if (run.performance === null) return `${head}: FAILED ${run.error ?? ''}`
  const lcp = run.lcpMs === null ? '–' : `${(run.lcpMs / 1000).toFixed(2)} s`
  const tail = run.error ? `  (${run.error})` : ''
  return `${head}: perf ${run.performance}, a11y ${run.accessibility}, LCP ${lcp}, TBT ${Math.round(run.tbtMs ?? 0)} ms, CLS ${(run.cls ?? 0).toFixed(3)}, load ${run.loadAverage[0]} (${(run.durationMs / 1000).toFixed(0)} s)${tail}`
}

async function main(): Promise<void> {
  const rounds = positiveInteger('BENCH_RUNS', 3)
  const pages = selectedPages()
  const startUptime = await uptime()
  console.log(`uptime at start: ${startUptime}`)
  console.log(
    `${pages.length} pages × ${rounds} rounds, plus the reference once per round; Lighthouse mobile, simulated throttling`,
  )

  if (process.env.BENCH_SKIP_BUILD) console.log('BENCH_SKIP_BUILD: measuring the dist/ already built')
  else await build()
  const distAtStart = await distFingerprint()
  console.log(`dist/ fingerprint ${distAtStart}`)

  const stamp = new Date().toISOString().replace(/[:.]/g, '-')
  const resultsDir = join(ROOT, 'bench', 'results')
  await mkdir(resultsDir, { recursive: true })
  const lhrDir = process.env.BENCH_SAVE_LHR ? join(resultsDir, `web-${stamp}-lhr`) : undefined
  if (lhrDir) await mkdir(lhrDir, { recursive: true })

  let stack: Stack | undefined
  let compareStack: Stack | undefined
  const compareRoot = process.env.BENCH_COMPARE
  let reference: ReferenceServer | undefined
  let stopped: Promise<void> | undefined
  const stopAll = () => {
    stopped ??= (async () => {
      await stopAllChromium()
      await reference?.stop().catch(() => {})
      await stack?.stop().catch(() => {})
      await compareStack?.stop().catch(() => {})
    })()
    return stopped
  }
  let interrupted = false
  const onSignal = (signal: NodeJS.Signals) => {
    interrupted = true
    console.error(`\n${signal}: stopping`)
    stopAll().finally(() => process.exit(130))
  }
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)

  try {
    stack = await startStack(ROOT)
    reference = await startReference()
    console.log(`Server ${stack.baseUrl} (demo organization seeded, ${stack.adminEmail} signed in)`)
    console.log(`Reference ${reference.url}`)

    if (compareRoot) {
      compareStack = await startStack(compareRoot)
      console.log(`Compared with ${compareRoot}/dist on ${compareStack.baseUrl}`)
    }
    const targetOf = (page: PageSpec, on: Stack, label: string): Target => ({
      label,
      url: new URL(page.path, on.baseUrl).href,
      ...(page.signedIn ? { cookie: on.cookie } : {}),
    })
    const targets: Target[] = pages.flatMap((page) => [
      targetOf(page, stack!, page.path),
      ...(compareStack ? [targetOf(page, compareStack, `${page.path} @compare`)] : []),
    ])
    const referenceTarget: Target = { label: REFERENCE_LABEL, url: reference.url }
    const total = rounds * (targets.length + 1)
    const runs: RunSummary[] = []
    let done = 0
    for (let round = 1; round <= rounds; round += 1) {
      for (const target of [referenceTarget, ...targets]) {
        // A run Lighthouse itself gives up on (NO_NAVSTART, a crash…) is kept in the results and tried again once.
        if (interrupted) return
        done += 1
        for (let attempt = 1; attempt <= 2; attempt += 1) {
          const run = await measure(target, round, lhrDir)
          runs.push(run)
          const retrying = run.performance === null && attempt === 1 && !interrupted
          console.log(`${progressLine(total, done, run)}${retrying ? ' (trying again)' : ''}`)
          if (!retrying) break
        }
      }
    }
    await stopAll()
    const distAtEnd = await distFingerprint()

    const rows: PageMedians[] = [...targets, referenceTarget].map((target) =>
      mediansOf(
        target.label,
        runs.filter((run) => run.label === target.label),
      ),
    )
    const verdicts: Verdict[] = pages.flatMap((page) =>
      verdictsOf(page, rows.find((row) => row.label === page.path)!),
    )
    const referenceRow = rows.at(-1)!
    const endUptime = await uptime()

    console.log('\n## Lighthouse, mobile (simulated slow 4G, 4x CPU), medians\n')
    console.log(markdownTable(rows))
    console.log(
      `\n${rounds} run(s) per page; Lighthouse ${lighthouseVersion()}; reference (bare static page) median performance ${referenceRow.performance ?? 'no result'}, benchmarkIndex median ${median(runs.map((run) => run.benchmarkIndex)) ?? '–'}.`,
    )

    console.log('\n## Verdicts\n')
    for (const verdict of verdicts) {
      console.log(
        `- ${verdict.pass ? 'PASS' : 'FAIL'} \`${verdict.page}\` ${verdict.check} (${verdict.value})`,
      )
    }
    const failed = verdicts.filter((verdict) => !verdict.pass)
    console.log(
      failed.length === 0 ? '\nAll targets met.' : `\n${failed.length} of ${verdicts.length} targets missed.`,
    )

    const a11y = rows.filter((row) => row.failingAccessibility.length > 0)
    console.log('\n## Failing accessibility audits\n')
    if (a11y.length === 0) console.log('None.')
    for (const row of a11y) {
      for (const audit of row.failingAccessibility) {
        console.log(
          `- \`${row.label}\` ${audit.id}: ${audit.title} (${audit.runs}/${row.runs - row.failedRuns} runs)`,
        )
      }
    }

    console.log('\n## Top performance issues (median run)\n')
    for (const row of rows) {
      const issues = row.medianRun?.performanceIssues.slice(0, 3) ?? []
      const text =
        issues.length === 0 ? 'none' : issues.map((issue) => `${issue.id} (${issue.savings})`).join('; ')
      console.log(`- \`${row.label}\`: ${text}`)
    }

    const surprises = [
      ...(distAtEnd === distAtStart
        ? []
        : [
            `dist/ changed during the benchmark (${distAtStart} → ${distAtEnd}): someone rebuilt; the runs mix builds`,
          ]),
      ...rows
        .filter((row) => row.endedAt.length > 0)
        .map((row) => `${row.label} ended at ${row.endedAt.join(', ')}`),
      ...runs.filter((run) => run.error).map((run) => `round ${run.round} ${run.label}: ${run.error}`),
      ...[...new Set(runs.flatMap((run) => run.runWarnings.map((warning) => `${run.label}: ${warning}`)))],
    ]
    if (surprises.length > 0) {
      console.log('\n## Warnings\n')
      for (const line of surprises) console.log(`- ${line}`)
    }

    const file = join(resultsDir, `web-${stamp}.json`)
    await writeFile(
      file,
      `${JSON.stringify(
        {
          startedAt: stamp,
          lighthouse: lighthouseVersion(),
          settings: {
            formFactor: 'mobile',
            throttlingMethod: 'simulate',
            rounds,
            categories: ['performance', 'accessibility'],
          },
          uptime: { start: startUptime, end: endUptime },
          dist: { start: distAtStart, end: distAtEnd },
          targets: { publicPerformance: PUBLIC_TARGET, signedIn: SIGNED_IN },
          pages,
          medians: rows,
          verdicts,
          runs,
        },
        null,
        2,
      )}\n`,
    )
    console.log(
      `\nResults: ${join('bench', 'results', `web-${stamp}.json`)}${lhrDir ? ` (reports in ${lhrDir})` : ''}`,
    )
    console.log(`uptime at end: ${endUptime}`)
  } finally {
    await stopAll()
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
  }
}

function lighthouseVersion(): string {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'node_modules', 'lighthouse', 'package.json'), 'utf8')) as {
    version: string
  }
  return pkg.version
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(
      `bench:web could not measure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    )
    process.exit(1)
  },
)
