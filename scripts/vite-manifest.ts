// Vite's build manifest (`dist/.vite/manifest.json`), read by the build's own steps: the bundle budget and the
// prerendered pages' preloads. Its shape and chunk keys are in src/pwa/build-manifest.ts, shared with the service
// worker's precache split (src/pwa/precache-split.ts).
import type { ViteManifest } from '../src/pwa/build-manifest.ts'

/** The light entry that hydrates the prerendered sign-in page. */
export const PUBLIC_ENTRY = 'public.html'

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
