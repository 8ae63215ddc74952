// Bundle budget: for every route, the gzipped JavaScript its first load needs (entry, its route chunks and
// their static imports, which carry their own translations) stays within `bundle-budget.json`; every text file of the build
// has a precompressed variant, and what the server sends for a page (brotli when there is one) stays within
// `wireRatio` × the gzip figure; the build runs React (react-dom bundled, no other renderer). Prints the
// figures; exits 1 when a route is over or the renderer is not react-dom.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import budget from '../bundle-budget.json' with { type: 'json' }
import { PUBLIC_PAGES } from '../contract/public-pages.ts'
import {
  type ViteManifest as Manifest,
  ROUTES_PREFIX,
  routeKey,
  SPA_ENTRY,
  SPLIT,
} from '../src/pwa/build-manifest.ts'
import { rendererProblems } from './check-renderer.ts'
import { BUNDLED_PACKAGES_FILE } from './vite-bundled-packages.ts'
import { staticFiles as collect, PUBLIC_ENTRY } from './vite-manifest.ts'

export type { Manifest }
export type Budget = {
  /** The goal: reported, not enforced, until a route meets it and its ceiling is lowered to it. */
  targets: { defaultKiB: number; routes: Record<string, number> }
  defaultKiB: number
  routes: Record<string, number>
  fieldModeKiB: number
  wireRatio: number
}

/**
 * What loads once the page is idle after its first load (lib/idle.ts): the field mode's store (Dexie, the
 * outbox worker, the mirror), the service worker's registration and its helper. Reported on their own, with their
 * own budget, not counted in a page's first load.
 */
export const DEFERRED = 'src/offline/field-mode.ts'
export const DEFERRED_KEYS = [
  DEFERRED,
  'src/pwa/register.ts',
  'node_modules/workbox-window/build/workbox-window.prod.es5.mjs',
]

/** A route file's page path: `app/keychains/$id/index.tsx` → `/app/keychains/$id`. */
export function pathOfRouteFile(file: string): string {
  const bare = file
    .replace(/\.tsx$/, '')
    .replace(/(^|\/)index$/, '')
    .replace(/\[_\]/g, '_')
  return `/${bare}`
}

/** The SPA's pages (route files that are not layouts) with the chunks of the page and of its layouts. */
export function spaRoutes(manifest: Manifest): Map<string, string[]> {
  const routes = new Map<string, string[]>()
  const files = Object.keys(manifest)
    .filter((key) => key.startsWith(ROUTES_PREFIX) && key.endsWith(SPLIT))
    .map((key) => key.slice(ROUTES_PREFIX.length, -SPLIT.length))
  for (const file of files) {
    if (file === 'route.tsx' || file.endsWith('/route.tsx')) continue
    const folders = file.split('/').slice(0, -1)
    const layouts = folders
      .map((_, index) => `${folders.slice(0, index + 1).join('/')}/route.tsx`)
      .concat('route.tsx')
      .filter((layout) => manifest[routeKey(layout)])
    routes.set(pathOfRouteFile(file), [...layouts, file].map(routeKey))
  }
  return routes
}

/** What the SPA loads for a page: its entry, the entry's lazy helpers, the page's chunks. */
export function spaFilesForPage(manifest: Manifest, keys: string[]): Set<string> {
  const entry = manifest[SPA_ENTRY]
  if (!entry?.isEntry) throw new Error(`The manifest has no entry ${SPA_ENTRY}`)
  // The entry's own lazy imports other than routes and the field mode's store (the service-worker
  // helper) may load on any page: counted everywhere.
  const alwaysLazy = (entry.dynamicImports ?? []).filter(
    (key) => !key.startsWith('src/routes/') && !DEFERRED_KEYS.includes(key),
  )
  return collect(manifest, [SPA_ENTRY, ...alwaysLazy, ...keys])
}

/** What the prerendered sign-in page loads: the light entry and the page's own chunk. */
export function publicFilesForPage(manifest: Manifest, page: 'sign-in'): Set<string> {
  return collect(manifest, [PUBLIC_ENTRY, `src/prerendered/${page}.tsx`])
}

/**
 * The scripts a built HTML page loads, from the page itself: its script elements' and module preloads' files.
 * The static landing page is counted so (scripts/prerender.ts writes its one script, which Vite does not know).
 */
export function scriptsOfPage(html: string): Set<string> {
  const files = new Set<string>()
  const tags = /<(?:script\b|link rel="modulepreload")[^>]*?\b(?:src|href)="\/([^"]+\.js)"/g
  for (const [, file] of html.matchAll(tags)) if (file) files.add(file)
  return files
}

/** The files loaded once the page is idle, on top of what a page already has. */
export function deferredFiles(manifest: Manifest, page: Set<string>): Set<string> {
  return collect(
    manifest,
    DEFERRED_KEYS.filter((key) => manifest[key]),
    page,
  )
}

export function gzippedKiB(files: Iterable<string>, read: (file: string) => Buffer): number {
  let bytes = 0
  for (const file of files) if (file.endsWith('.js')) bytes += gzipSync(read(file), { level: 9 }).length
  return bytes / 1024
}

/** What the server sends for these files to a browser that accepts brotli: the smallest variant there is. */
export function wireKiB(files: Iterable<string>, sizeOf: (file: string) => number | null): number {
  let bytes = 0
  for (const file of files) {
    if (!file.endsWith('.js')) continue
    const raw = sizeOf(file)
    if (raw === null) throw new Error(`${file} is missing from the build`)
    const variants = [sizeOf(`${file}.br`), sizeOf(`${file}.gz`)].filter((size) => size !== null)
    bytes += Math.min(raw, ...variants)
  }
  return bytes / 1024
}

export function budgetOf(budget: Budget, route: string): number {
  return budget.routes[route] ?? budget.defaultKiB
}

export function targetOf(budget: Budget, route: string): number {
  return budget.targets.routes[route] ?? budget.targets.defaultKiB
}

export type RouteFigure = { route: string; files: Set<string>; budgetKiB: number }

/**
 * Every route with the files of its first load: the prerendered pages (the landing page's from its HTML,
 * `landingHtml`), then the SPA's.
 */
export function routeFigures(manifest: Manifest, budget: Budget, landingHtml: string): RouteFigure[] {
  const figures: RouteFigure[] = [
    { route: '/', files: scriptsOfPage(landingHtml), budgetKiB: budgetOf(budget, '/') },
    {
      route: '/sign-in',
      files: publicFilesForPage(manifest, 'sign-in'),
      budgetKiB: budgetOf(budget, '/sign-in'),
    },
  ]
  for (const [route, keys] of spaRoutes(manifest)) {
    if (route === '/' || route === '/sign-in') continue
    figures.push({ route, files: spaFilesForPage(manifest, keys), budgetKiB: budgetOf(budget, route) })
  }
  return figures
}

if (import.meta.main) {
  const manifest = JSON.parse(readFileSync('dist/.vite/manifest.json', 'utf8')) as Manifest
  const read = (file: string) => readFileSync(`dist/${file}`)
  const sizeOf = (file: string) => (existsSync(`dist/${file}`) ? read(file).length : null)
  let over = false
  console.log(
    'route'.padEnd(42),
    'gzip KiB'.padStart(9),
    'wire KiB'.padStart(9),
    'budget'.padStart(7),
    'target'.padStart(7),
  )
  const missed: string[] = []
  const landing = PUBLIC_PAGES.find((page) => page.page === 'landing')
  if (!landing) throw new Error('No landing page in contract/public-pages.ts')
  const landingHtml = readFileSync(`dist/${landing.file}`, 'utf8')
  for (const { route, files, budgetKiB } of routeFigures(manifest, budget, landingHtml)) {
    const gzip = gzippedKiB(files, read)
    const wire = wireKiB(files, sizeOf)
    const failures = [
      gzip > budgetKiB ? 'OVER BUDGET' : '',
      wire > gzip * budget.wireRatio ? `WIRE OVER ${budget.wireRatio}× GZIP` : '',
    ].filter(Boolean)
    over ||= failures.length > 0
    const target = targetOf(budget, route)
    if (gzip > target) missed.push(route)
    console.log(
      route.padEnd(42),
      gzip.toFixed(1).padStart(9),
      wire.toFixed(1).padStart(9),
      String(budgetKiB).padStart(7),
      String(target).padStart(7),
      failures.join(', ') || (gzip > target ? 'ok (above target)' : 'ok'),
    )
  }
  if (missed.length > 0) console.log(`${missed.length} routes within their ceiling but above their target.`)
  const scanPage = spaFilesForPage(manifest, spaRoutes(manifest).get('/app/scan') ?? [])
  const deferred = gzippedKiB(deferredFiles(manifest, scanPage), read)
  const verdict = deferred <= budget.fieldModeKiB ? 'ok' : 'OVER BUDGET'
  over ||= deferred > budget.fieldModeKiB
  console.log(
    `after load: ${deferred.toFixed(1)} KiB gzipped JS loaded once /app/scan is idle (field mode, service worker helper; budget ${budget.fieldModeKiB} KiB) ${verdict}`,
  )
  const packages = JSON.parse(readFileSync(`dist/${BUNDLED_PACKAGES_FILE}`, 'utf8')) as string[]
  const chunks = readdirSync('dist/assets')
    .filter((file) => file.endsWith('.js'))
    .map((file) => readFileSync(`dist/assets/${file}`, 'utf8'))
  const problems = rendererProblems(packages, chunks)
  console.log(`renderer: ${problems.length === 0 ? 'react-dom, no other (ok)' : problems.join('; ')}`)
  over ||= problems.length > 0
  if (over) process.exit(1)
}
