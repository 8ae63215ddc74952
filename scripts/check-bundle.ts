// Bundle budget: the gzipped JavaScript a page needs (entry, its route chunks, their static imports and the
// French catalog) must stay within the budget. Prints the figures; exits 1 when a page is over.
import { readFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'

export const BUDGET_KIB = 170

type ManifestChunk = { file: string; isEntry?: boolean; imports?: string[]; dynamicImports?: string[] }
type Manifest = Record<string, ManifestChunk>

const route = (file: string) => `src/routes/{-$locale}/${file}?tsr-split=component`

/** The route chunks each checked page renders, below the always-loaded entry. */
export const PAGES: Record<string, string[]> = {
  '/': [route('route.tsx'), route('index.tsx')],
  '/sign-in': [route('route.tsx'), route('sign-in.tsx')],
  '/app/scan': [route('route.tsx'), route('app/route.tsx'), route('app/scan.tsx')],
}

export function filesForPage(manifest: Manifest, keys: string[]): Set<string> {
  const entry = Object.entries(manifest).find(([, chunk]) => chunk.isEntry)?.[0]
  if (!entry) throw new Error('The manifest has no entry chunk')
  const files = new Set<string>()
  const visit = (key: string) => {
    const chunk = manifest[key]
    if (!chunk) throw new Error(`The manifest has no chunk ${key}: update PAGES in scripts/check-bundle.ts`)
    if (files.has(chunk.file)) return
    files.add(chunk.file)
    for (const imported of chunk.imports ?? []) visit(imported)
  }
  // The entry's own lazy imports other than routes, catalogs and the field mode's store (the service-worker
  // helper) load on every page.
  const alwaysLazy = (manifest[entry]?.dynamicImports ?? []).filter(
    (key) => !key.startsWith('src/routes/') && !key.startsWith('locales/') && !key.startsWith(DEFERRED),
  )
  for (const key of [entry, 'locales/fr/messages.po', ...alwaysLazy, ...keys]) visit(key)
  return files
}

/**
 * The field mode's store (Dexie, the outbox worker, the mirror) loads after the first paint, on demand: it is
 * reported on its own, with its own budget, not counted in a page's first paint.
 */
export const DEFERRED = 'src/offline/field-mode.ts'
export const DEFERRED_BUDGET_KIB = 60

/** The files the deferred field mode loads on top of what a page already has. */
export function deferredFiles(manifest: Manifest, page: Set<string>): Set<string> {
  const files = new Set<string>()
  const visit = (key: string) => {
    const chunk = manifest[key]
    if (!chunk || page.has(chunk.file) || files.has(chunk.file)) return
    files.add(chunk.file)
    for (const imported of chunk.imports ?? []) visit(imported)
  }
  visit(DEFERRED)
  return files
}

export function gzippedKiB(files: Iterable<string>, read: (file: string) => Buffer): number {
  let bytes = 0
  for (const file of files) if (file.endsWith('.js')) bytes += gzipSync(read(file), { level: 9 }).length
  return bytes / 1024
}

if (import.meta.main) {
  const manifest = JSON.parse(readFileSync('dist/.vite/manifest.json', 'utf8')) as Manifest
  let over = false
  for (const [page, keys] of Object.entries(PAGES)) {
    const files = filesForPage(manifest, keys)
    const kib = gzippedKiB(files, (file) => readFileSync(`dist/${file}`))
    const verdict = kib <= BUDGET_KIB ? 'ok' : 'OVER BUDGET'
    over ||= kib > BUDGET_KIB
    console.log(
      `${page.padEnd(10)} ${kib.toFixed(1).padStart(7)} KiB gzipped JS in ${files.size} files (budget ${BUDGET_KIB} KiB) ${verdict}`,
    )
  }
  const scanPage = filesForPage(manifest, PAGES['/app/scan'] ?? [])
  const deferred = gzippedKiB(deferredFiles(manifest, scanPage), (file) => readFileSync(`dist/${file}`))
  const verdict = deferred <= DEFERRED_BUDGET_KIB ? 'ok' : 'OVER BUDGET'
  over ||= deferred > DEFERRED_BUDGET_KIB
  console.log(
    `${'field mode'.padEnd(10)} ${deferred.toFixed(1).padStart(7)} KiB gzipped JS loaded after the first paint of /app/scan (budget ${DEFERRED_BUDGET_KIB} KiB) ${verdict}`,
  )
  if (over) process.exit(1)
}
