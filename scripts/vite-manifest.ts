// Vite's build manifest (`dist/.vite/manifest.json`), read by the build's own steps: the bundle budget, the
// prerendered pages' preloads and the service worker's precache split.

export type ViteManifestChunk = {
  file: string
  src?: string
  name?: string
  isEntry?: boolean
  imports?: string[]
  dynamicImports?: string[]
  css?: string[]
  assets?: string[]
}
export type ViteManifest = Record<string, ViteManifestChunk>

export const ROUTES_PREFIX = 'src/routes/{-$locale}/'
export const SPLIT = '?tsr-split=component---loader'
/** The SPA's entry (its shell) and the light entry that hydrates the prerendered sign-in page. */
export const SPA_ENTRY = 'index.html'
export const PUBLIC_ENTRY = 'public.html'

/** A route file's chunk: `app/scan.tsx` → `src/routes/{-$locale}/app/scan.tsx?tsr-split=component---loader`. */
export const routeKey = (file: string) => `${ROUTES_PREFIX}${file}${SPLIT}`

/** Every file a set of chunks loads through static imports, leaving out the files in `skip`. */
export function staticFiles(
  manifest: ViteManifest,
  keys: string[],
  skip: Set<string> = new Set(),
): Set<string> {
  const files = new Set<string>()
  const visit = (key: string) => {
    const chunk = manifest[key]
    if (!chunk) throw new Error(`The manifest has no chunk ${key}`)
    if (files.has(chunk.file) || skip.has(chunk.file)) return
    files.add(chunk.file)
    for (const imported of chunk.imports ?? []) visit(imported)
  }
  for (const key of keys) visit(key)
  return files
}
