// From Lighthouse results to the numbers the benchmark prints: one run's summary, the medians of a page, the
// markdown table and the verdicts against the targets.
import type { Result } from 'lighthouse'

type Audit = Result['audits'][string]

export type PageSpec = {
  path: string
  signedIn: boolean
  /** The performance score (0–100) the page's median must reach. */
  perfTarget: number
  /** The signed-in pages' further targets: the median total blocking time, and the lowest score of any run. */
  tbtTargetMs?: number
  lowestRunTarget?: number
}

const CLS_TARGET = 0.02
const A11Y_TARGET = 100

type Issue = { id: string; title: string; savings: string }

/** The figures of a page: one run's, or the medians of its runs. */
type Metrics = {
  performance: number | null
  accessibility: number | null
  fcpMs: number | null
  lcpMs: number | null
  tbtMs: number | null
  cls: number | null
  speedIndexMs: number | null
  totalKiB: number | null
  scriptKiB: number | null
}

export type RunSummary = Metrics & {
  label: string
  url: string
  round: number
  startedAt: string
  durationMs: number
  /** os.loadavg() when the run started. */
  loadAverage: number[]
  error?: string
  /** Where the page ended: the main document (after HTTP redirects) and the URL shown at the end. */
  mainDocumentUrl?: string
  finalDisplayedUrl?: string
  runWarnings: string[]
  benchmarkIndex?: number
  requests: number | null
  failingAccessibility: Array<{ id: string; title: string }>
  /** Failing performance insights and diagnostics, the largest estimated savings first. */
  performanceIssues: Issue[]
}

const numeric = (audit: Audit | undefined): number | null =>
  typeof audit?.numericValue === 'number' ? audit.numericValue : null
const score100 = (score: number | null | undefined): number | null =>
  typeof score === 'number' ? Math.round(score * 100) : null
const kib = (bytes: number): number => Math.round((bytes / 1024) * 10) / 10

const SCORED = new Set(['numeric', 'binary', 'metricSavings'])

function isFailing(audit: Audit | undefined): audit is Audit {
  return !!audit && SCORED.has(audit.scoreDisplayMode) && typeof audit.score === 'number' && audit.score < 0.9
}

type SummaryRow = { resourceType?: string; transferSize?: number; requestCount?: number }

function resourceRows(lhr: Result): SummaryRow[] {
  const details = lhr.audits['resource-summary']?.details
  return details && 'items' in details && Array.isArray(details.items) ? (details.items as SummaryRow[]) : []
}

function savingsOf(audit: Audit): { ms: number; text: string } {
  const parts: string[] = []
  let ms = 0
  for (const [metric, value] of Object.entries(audit.metricSavings ?? {})) {
    if (typeof value !== 'number' || value <= 0) continue
    if (metric === 'CLS') parts.push(`CLS −${value.toFixed(3)}`)
    else {
      ms += value
      parts.push(`${metric} −${Math.round(value)} ms`)
    }
  }
  const details = audit.details as { overallSavingsMs?: number; overallSavingsBytes?: number } | undefined
  if (parts.length === 0 && typeof details?.overallSavingsMs === 'number' && details.overallSavingsMs > 0) {
    ms += details.overallSavingsMs
    parts.push(`−${Math.round(details.overallSavingsMs)} ms`)
  }
  if (typeof details?.overallSavingsBytes === 'number' && details.overallSavingsBytes > 0) {
    parts.push(`−${Math.round(details.overallSavingsBytes / 1024)} KiB`)
  }
  if (parts.length === 0 && audit.displayValue) parts.push(audit.displayValue)
  return { ms, text: parts.join(', ') || 'no estimate' }
}

function performanceIssues(lhr: Result): Issue[] {
  const refs = lhr.categories.performance?.auditRefs ?? []
  return refs
    .filter((ref) => ref.group === 'insights' || ref.group === 'diagnostics')
    .map((ref) => lhr.audits[ref.id])
    .filter(isFailing)
    .map((audit) => ({ audit, savings: savingsOf(audit) }))
    .sort(
      (a, b) =>
        b.savings.ms - a.savings.ms ||
        (b.audit.metricSavings?.CLS ?? 0) - (a.audit.metricSavings?.CLS ?? 0) ||
        (a.audit.score ?? 0) - (b.audit.score ?? 0),
    )
    .map(({ audit, savings }) => ({ id: audit.id, title: audit.title, savings: savings.text }))
}

export function summarize(
  lhr: Result,
  run: Pick<RunSummary, 'label' | 'url' | 'round' | 'startedAt' | 'durationMs' | 'loadAverage'>,
): RunSummary {
  const rows = resourceRows(lhr)
  const scriptRow = rows.find((row) => row.resourceType === 'script')
  const totalRow = rows.find((row) => row.resourceType === 'total')
  const totalBytes = numeric(lhr.audits['total-byte-weight'])
  const a11yRefs = lhr.categories.accessibility?.auditRefs ?? []
  return {
    ...run,
    ...(lhr.runtimeError ? { error: `${lhr.runtimeError.code}: ${lhr.runtimeError.message}` } : {}),
    mainDocumentUrl: lhr.mainDocumentUrl,
    finalDisplayedUrl: lhr.finalDisplayedUrl,
    runWarnings: lhr.runWarnings.map(String),
    benchmarkIndex: lhr.environment.benchmarkIndex,
    performance: score100(lhr.categories.performance?.score),
    accessibility: score100(lhr.categories.accessibility?.score),
    fcpMs: numeric(lhr.audits['first-contentful-paint']),
    lcpMs: numeric(lhr.audits['largest-contentful-paint']),
    tbtMs: numeric(lhr.audits['total-blocking-time']),
    cls: numeric(lhr.audits['cumulative-layout-shift']),
    speedIndexMs: numeric(lhr.audits['speed-index']),
    totalKiB: totalBytes === null ? null : kib(totalBytes),
    scriptKiB: typeof scriptRow?.transferSize === 'number' ? kib(scriptRow.transferSize) : null,
    requests: typeof totalRow?.requestCount === 'number' ? totalRow.requestCount : null,
    failingAccessibility: a11yRefs
      .map((ref) => lhr.audits[ref.id])
      .filter(
        (audit): audit is Audit =>
          !!audit && SCORED.has(audit.scoreDisplayMode) && typeof audit.score === 'number' && audit.score < 1,
      )
      .map((audit) => ({ id: audit.id, title: audit.title })),
    performanceIssues: performanceIssues(lhr),
  }
}

/** A run that produced no result (Lighthouse threw). */
export function failedRun(
  run: Pick<RunSummary, 'label' | 'url' | 'round' | 'startedAt' | 'durationMs' | 'loadAverage'>,
  error: unknown,
): RunSummary {
  return {
    ...run,
    error: error instanceof Error ? error.message : String(error),
    runWarnings: [],
    performance: null,
    accessibility: null,
    fcpMs: null,
    lcpMs: null,
    tbtMs: null,
    cls: null,
    speedIndexMs: null,
    totalKiB: null,
    scriptKiB: null,
    requests: null,
    failingAccessibility: [],
    performanceIssues: [],
  }
}

export function median(values: Array<number | null | undefined>): number | null {
  const sorted = values.filter((value): value is number => typeof value === 'number').sort((a, b) => a - b)
  if (sorted.length === 0) return null
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

export type PageMedians = Metrics & {
  label: string
  runs: number
  failedRuns: number
  /** Each metric is the median over the runs; the issues come from the run with the median score. */
  medianRun: RunSummary | undefined
  /** Failing accessibility audits of any run, with how many runs failed them. */
  failingAccessibility: Array<{ id: string; title: string; runs: number }>
  /** Pages that did not end where they were asked for (a redirect, client-side or HTTP). */
  endedAt: string[]
  /** The lowest performance score of any run. */
  lowestPerformance: number | null
}

export function mediansOf(label: string, runs: RunSummary[]): PageMedians {
  const good = runs.filter((run) => run.performance !== null)
  const pick = <K extends keyof RunSummary>(key: K) => median(good.map((run) => run[key] as number | null))
  const performance = pick('performance')
  const byDistance = [...good].sort(
    (a, b) =>
      Math.abs((a.performance ?? 0) - (performance ?? 0)) -
      Math.abs((b.performance ?? 0) - (performance ?? 0)),
  )
  const failing = new Map<string, { id: string; title: string; runs: number }>()
  for (const run of good) {
    for (const audit of run.failingAccessibility) {
      const entry = failing.get(audit.id) ?? { ...audit, runs: 0 }
      entry.runs += 1
      failing.set(audit.id, entry)
    }
  }
  const endedAt = new Set<string>()
  for (const run of good) {
    const asked = new URL(run.url)
    for (const seen of [run.mainDocumentUrl, run.finalDisplayedUrl]) {
      if (!seen) continue
      const where = new URL(seen)
      if (where.pathname !== asked.pathname || where.host !== asked.host)
        endedAt.add(where.pathname + where.search)
    }
  }
  return {
    label,
    runs: runs.length,
    failedRuns: runs.length - good.length,
    lowestPerformance: good.length > 0 ? Math.min(...good.map((run) => run.performance!)) : null,
    performance,
    accessibility: pick('accessibility'),
    fcpMs: pick('fcpMs'),
    lcpMs: pick('lcpMs'),
    tbtMs: pick('tbtMs'),
    cls: pick('cls'),
    speedIndexMs: pick('speedIndexMs'),
    totalKiB: pick('totalKiB'),
    scriptKiB: pick('scriptKiB'),
    medianRun: byDistance[0],
    failingAccessibility: [...failing.values()],
    endedAt: [...endedAt],
  }
}

const dash = '–'
const seconds = (ms: number | null) => (ms === null ? dash : `${(ms / 1000).toFixed(2)} s`)
const millis = (ms: number | null) => (ms === null ? dash : `${Math.round(ms)} ms`)
const plain = (value: number | null, digits = 0) => (value === null ? dash : value.toFixed(digits))

export function markdownTable(rows: PageMedians[]): string {
  const header = [
    'Page',
    'Perf',
    'FCP',
    'LCP',
    'TBT',
    'CLS',
    'Speed Index',
    'A11y',
    'Total KiB',
    'Script KiB',
  ]
  const lines = [
    `| ${header.join(' | ')} |`,
    `|${header.map((_, index) => (index === 0 ? '---' : '---:')).join('|')}|`,
  ]
  for (const row of rows) {
    const name = row.endedAt.length > 0 ? `${row.label} (→ ${row.endedAt.join(', ')})` : row.label
    const failed =
      row.failedRuns > 0 ? ` (${row.failedRuns} of ${row.runs} runs failed, median of the others)` : ''
    const cells = [
      `\`${name}\`${failed}`,
      plain(row.performance),
      seconds(row.fcpMs),
      seconds(row.lcpMs),
      millis(row.tbtMs),
      plain(row.cls, 3),
      seconds(row.speedIndexMs),
      plain(row.accessibility),
      plain(row.totalKiB, 1),
      plain(row.scriptKiB, 1),
    ]
    lines.push(`| ${cells.join(' | ')} |`)
  }
  return lines.join('\n')
}

export type Verdict = { page: string; check: string; pass: boolean; value: string }

export function verdictsOf(spec: PageSpec, row: PageMedians): Verdict[] {
  const shown = (value: number | null, digits = 0) => (value === null ? 'no result' : value.toFixed(digits))
  // A page that sent the browser elsewhere (a signed-in page to the sign-in page) was not measured.
  const elsewhere: Verdict[] =
    row.endedAt.length > 0
      ? [
          {
            page: spec.path,
            check: 'measured itself',
            pass: false,
            value: `ended at ${row.endedAt.join(', ')}`,
          },
        ]
      : []
  return [
    ...elsewhere,
    {
      page: spec.path,
      check: `performance ≥ ${spec.perfTarget}`,
      pass: row.performance !== null && row.performance >= spec.perfTarget,
      value: shown(row.performance),
    },
    ...(spec.lowestRunTarget === undefined
      ? []
      : [
          {
            page: spec.path,
            check: `no run below ${spec.lowestRunTarget}`,
            pass: row.lowestPerformance !== null && row.lowestPerformance >= spec.lowestRunTarget,
            value: `lowest ${shown(row.lowestPerformance)}`,
          },
        ]),
    ...(spec.tbtTargetMs === undefined
      ? []
      : [
          {
            page: spec.path,
            check: `TBT ≤ ${spec.tbtTargetMs} ms`,
            pass: row.tbtMs !== null && row.tbtMs <= spec.tbtTargetMs,
            value: `${shown(row.tbtMs)} ms`,
          },
        ]),
    {
      page: spec.path,
      check: `CLS ≤ ${CLS_TARGET}`,
      pass: row.cls !== null && row.cls <= CLS_TARGET,
      value: shown(row.cls, 3),
    },
    {
      page: spec.path,
      check: `accessibility ${A11Y_TARGET}`,
      pass: row.accessibility !== null && row.accessibility >= A11Y_TARGET,
      value: shown(row.accessibility),
    },
  ]
}
