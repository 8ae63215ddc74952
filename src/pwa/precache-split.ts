// Build time (vite.pwa.ts): which files of the build the service worker precaches when it installs, and which
// it caches only after the page is idle. Pure functions of Vite's build manifest (`dist/.vite/manifest.json`).

import { routeKey, SPA_ENTRY, type ViteManifest, type ViteManifestChunk } from './build-manifest.ts'

export type { ViteManifest }

/** An entry of Workbox's precache manifest, as `manifestTransforms` receive it. */
export type PrecacheEntry = { url: string; revision: string | null; size: number }

/** The field routes (and their layouts), under `src/routes/{-$locale}/`: what a custodian uses in a basement. */
export const FIELD_ROUTE_FILES = [
  'route.tsx',
  // Signing out offline, or opening the installed app signed out, lands on these.
  'index.tsx',
  'sign-in.tsx',
  'app/route.tsx',
  'app/index.tsx',
  'app/scan.tsx',
  'app/keychains/index.tsx',
  'app/keychains/$id/index.tsx',
  'app/transfers/index.tsx',
  // A stocktake goes on in a cellar: its page reloads offline.
  'app/stocktakes/$id.tsx',
  'app/transfers/requests/index.tsx',
  'app/transfers/requests/$requestId.tsx',
  'tags/index.tsx',
  'tags/$publicId.tsx',
  'app/sync.tsx',
  'app/profile.tsx',
  // A keychain changes hands in a car park: both phones' screens and the receipt open offline.
  'app/handover/{-$keychainId}.tsx',
  'app/handovers/{-$id}.tsx',
]

/** Lazy modules precached with the shell: the field mode's store (Dexie, outbox, mirror). */
const FIELD_MODULES = ['src/offline/field-mode.ts']

/** Lazy modules that field routes load but that only work online (the cart, authorizing a transfer). */
const OFFICE_LAZY_MODULES = [
  'src/features/cart/CartDialog.tsx',
  'src/features/transfers/AuthorizeTransferPanel.tsx',
]

const isRoute = (key: string) => key.startsWith('src/routes/')
const baseName = (path: string) => path.replace(/^.*\//, '').replace(/\.[^.]*$/, '')

function isOfficeLazy(key: string, chunk: ViteManifestChunk): boolean {
  return OFFICE_LAZY_MODULES.some(
    (module) =>
      key === module || chunk.src === module || (key.startsWith('_') && chunk.name === baseName(module)),
  )
}

/**
 * The files (JS, CSS, assets) the given chunks load: their static imports, and their lazy imports except
 * route chunks (a route comes in only as a root; the entry lazily imports every route) and those `skip` says.
 */
function filesOf(
  manifest: ViteManifest,
  roots: string[],
  skip: (key: string, chunk: ViteManifestChunk) => boolean = () => false,
): Set<string> {
  const files = new Set<string>()
  const seen = new Set<string>()
  const visit = (key: string) => {
    if (seen.has(key)) return
    seen.add(key)
    const chunk = manifest[key]
    if (!chunk) throw new Error(`The build manifest has no chunk ${key}`)
    for (const file of [chunk.file, ...(chunk.css ?? []), ...(chunk.assets ?? [])]) files.add(file)
    for (const imported of chunk.imports ?? []) visit(imported)
    for (const lazy of chunk.dynamicImports ?? []) {
      const lazyChunk = manifest[lazy]
      if (!isRoute(lazy) && !(lazyChunk && skip(lazy, lazyChunk))) visit(lazy)
    }
  }
  for (const root of roots) visit(root)
  return files
}

/** What the worker precaches at install: the shell, the field routes and the field mode's store. */
function firstFiles(manifest: ViteManifest): Set<string> {
  const missing = FIELD_ROUTE_FILES.map(routeKey)
    .concat(FIELD_MODULES, SPA_ENTRY)
    .filter((key) => !manifest[key])
  if (missing.length > 0)
    throw new Error(
      `precache split: the build has no ${missing.join(', ')}; update FIELD_ROUTE_FILES in src/pwa/precache-split.ts`,
    )
  return filesOf(manifest, [SPA_ENTRY, ...FIELD_MODULES, ...FIELD_ROUTE_FILES.map(routeKey)], isOfficeLazy)
}

/** Every file the SPA can load (all routes); what only the prerendered pages' light entry loads is not in it. */
function spaFiles(manifest: ViteManifest): Set<string> {
  const routes = Object.keys(manifest).filter(isRoute)
  return filesOf(manifest, [SPA_ENTRY, ...routes])
}

/** Scripts the generated worker imports (sw-*.js) and Workbox's runtime: the browser keeps them with the worker. */
const WORKER_SCRIPT = /^(sw[-.][^/]*|workbox-[^/]*)\.js$/

/**
 * Splits the precache manifest Workbox globbed from the build: `first` is precached at install; `deferred` is
 * cached after the page is idle; `dropped` is never cached by the worker (its own imported scripts, the
 * prerendered pages' own chunks: with the worker in control every navigation renders the SPA shell).
 * Files outside the build manifest (index.html, icons, web manifest) are first.
 */
export function splitPrecache(
  entries: PrecacheEntry[],
  manifest: ViteManifest,
): { first: PrecacheEntry[]; deferred: PrecacheEntry[]; dropped: PrecacheEntry[] } {
  const first = firstFiles(manifest)
  const spa = spaFiles(manifest)
  const built = new Set(
    Object.values(manifest).flatMap((chunk) => [chunk.file, ...(chunk.css ?? []), ...(chunk.assets ?? [])]),
  )
  const split = {
    first: [] as PrecacheEntry[],
    deferred: [] as PrecacheEntry[],
    dropped: [] as PrecacheEntry[],
  }
  const seen = new Set<string>()
  for (const entry of entries) {
    const path = entry.url.replace(/^\.?\//, '')
    if (seen.has(path)) continue
    seen.add(path)
    if (WORKER_SCRIPT.test(path)) split.dropped.push(entry)
    else if (first.has(path) || !built.has(path)) split.first.push(entry)
    else if (spa.has(path)) split.deferred.push(entry)
    else split.dropped.push(entry)
  }
  return split
}

/** The script the build writes beside sw.js, which the worker imports: the deferred files, as root paths. */
export function deferredListScript(deferred: PrecacheEntry[], base = '/'): string {
  const paths = deferred.map((entry) => `${base}${entry.url.replace(/^\.?\//, '')}`)
  return `// Generated by vite.pwa.ts: the files the service worker caches once a page is idle.\nself.__TROUSSEAU_DEFERRED__ = ${JSON.stringify(paths)}\n`
}
