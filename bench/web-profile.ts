// Start-up profile of signed-in pages: `npm run bench:profile -- /app [/app/keychains …]` builds the browser
// with source maps into dist/ (run `npm run build` again before anything else uses dist/), serves it with the
// demo organization, and records a CPU profile in Chromium at 4× CPU throttling from navigation to 9 s later.
// Prints, per page, the busy periods over 50 ms with the app's own functions that ran in them, then the self
// time by original source (package or file) and the heaviest functions.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { originalPositionFor, TraceMap } from '@jridgewell/trace-mapping'
import { chromium } from 'playwright-core'
import { startStack } from './web/stack.ts'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const maps = new Map<string, TraceMap | null>()
function mapOf(url: string): TraceMap | null {
  const file = url.replace(/^https?:\/\/[^/]+\//, '')
  if (!maps.has(file)) {
    try {
      maps.set(file, new TraceMap(readFileSync(join(ROOT, 'dist', `${file}.map`), 'utf8')))
    } catch {
      maps.set(file, null)
    }
  }
  return maps.get(file)!
}
function sourceOf(frame: Frame) {
  if (!frame.url) return { source: `(${frame.functionName || 'program'})`, name: frame.functionName }
  const map = mapOf(frame.url)
  if (!map) return { source: frame.url.replace(/^https?:\/\/[^/]+/, ''), name: frame.functionName }
  const pos = originalPositionFor(map, { line: frame.lineNumber + 1, column: frame.columnNumber })
  const src = (pos.source ?? '?').replace(/^.*node_modules\//, 'npm:').replace(/^(\.\.\/)+/, '')
  const pkg = src.startsWith('npm:')
    ? src
        .split('/')
        .slice(0, src.startsWith('npm:@') ? 2 : 1)
        .join('/')
    : src
  return { source: pkg, name: `${pos.name ?? frame.functionName} ${src}:${pos.line}` }
}

type Frame = { url: string; lineNumber: number; columnNumber: number; functionName: string }
type Profile = {
  startTime: number
  samples: number[]
  timeDeltas: number[]
  nodes: { id: number; callFrame: Frame; children?: number[] }[]
}

const stack = await startStack(ROOT)
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] })
try {
  for (const path of process.argv.slice(2)) {
    const context = await browser.newContext({ viewport: { width: 412, height: 823 }, isMobile: true })
    const [name, value] = stack.cookie.split(';')[0]!.split('=')
    await context.addCookies([{ name: name!, value: value!, url: stack.baseUrl }])
    const page = await context.newPage()
    const cdp = await context.newCDPSession(page)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 })
    await cdp.send('Profiler.enable')
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 })
    await cdp.send('Profiler.start')
    const started = Date.now()
    await page.goto(`${stack.baseUrl}${path}`)
    await page.waitForTimeout(9000)
    const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: Profile }
    const self = new Map<number, number>()
    for (const [i, sample] of profile.samples.entries())
      self.set(sample, (self.get(sample) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000)
    const bySource = new Map<string, number>()
    const byFunction = new Map<string, number>()
    for (const node of profile.nodes) {
      const ms = self.get(node.id) ?? 0
      if (!ms) continue
      const { source, name } = sourceOf(node.callFrame)
      bySource.set(source, (bySource.get(source) ?? 0) + ms)
      byFunction.set(name, (byFunction.get(name) ?? 0) + ms)
    }
    // Busy periods (consecutive samples with no idle between), the long ones with what ran in them.
    const parent = new Map<number, number>()
    const byId = new Map<number, Profile['nodes'][number]>()
    for (const node of profile.nodes) {
      byId.set(node.id, node)
      for (const child of node.children ?? []) parent.set(child, node.id)
    }
    const ours = (id: number): string => {
      const names: string[] = []
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
        const frame = byId.get(at)!.callFrame
        if (!frame.url) continue
        const { name } = sourceOf(frame)
        if (/ src\//.test(name)) names.push(name.trim().replace(/ src\//, ' '))
      }
      if (names.length > 0) return names.slice(-3).reverse().join(' < ')
      // No app frame: name the library (or the engine's own work: compile, GC) that ran.
      return `(library: ${sourceOf(byId.get(id)!.callFrame).source})`
    }
    let t = profile.startTime
    type Period = { start: number; end: number; what: Map<string, number> }
    let period: Period | null = null
    const periods: Period[] = []
    for (const [i, sample] of profile.samples.entries()) {
      t += profile.timeDeltas[i] ?? 0
      const idle = byId.get(sample)!.callFrame.functionName === '(idle)'
      if (idle) {
        if (period) periods.push(period)
        period = null
        continue
      }
      period ??= { start: t, end: t, what: new Map() }
      const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000
      period.end = t
      const key = ours(sample)
      period.what.set(key, (period.what.get(key) ?? 0) + dt)
    }
    if (period !== null) periods.push(period as Period)
    console.log(`\n## ${path} long busy periods`)
    for (const p of periods) {
      const ms = (p.end - p.start) / 1000
      if (ms < 50) continue
      const what = [...p.what]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 6)
        .map(([k, v]) => `${v.toFixed(0)}ms ${k}`)
      console.log(
        `  at ${((p.start - profile.startTime) / 1000).toFixed(0)} ms: ${ms.toFixed(0)} ms\n      ${what.join('\n      ')}`,
      )
    }
    const top = (m: Map<string, number>, n: number) =>
      [...m]
        .sort((a, b) => b[1] - a[1])
        .slice(0, n)
        .map(([k, v]) => `  ${v.toFixed(0).padStart(6)} ms  ${k}`)
        .join('\n')
    console.log(
      `\n## ${path} (${Date.now() - started} ms wall)\n-- by source\n${top(bySource, 30)}\n-- by function\n${top(byFunction, 40)}`,
    )
    await context.close()
  }
} finally {
  await browser.close()
  await stack.stop()
}
