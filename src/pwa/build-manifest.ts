// Vite's build manifest (`dist/.vite/manifest.json`): its shape and the keys of the chunks named in it. Read at
// build time by the service worker's precache split (precache-split.ts) and by the build scripts (the bundle
// budget, the prerendered pages' preloads). No Node API here: code under src/ imports it, and scripts/ may
// import src/, not the other way round.

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
/** The SPA's entry (its shell). */
export const SPA_ENTRY = 'index.html'

/** A route file's chunk: `app/scan.tsx` → `src/routes/{-$locale}/app/scan.tsx?tsr-split=component---loader`. */
export const routeKey = (file: string) => `${ROUTES_PREFIX}${file}${SPLIT}`
