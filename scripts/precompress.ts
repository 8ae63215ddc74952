// Post-build step: writes a brotli (`.br`) and a gzip (`.gz`) variant next to every text file of the build, which
// the server sends by content negotiation (server/http/static-file.ts). Run as `node scripts/precompress.ts [dir]`
// (default `dist`), after every step that writes into the build. Running it again gives the same files.
import { readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { availableParallelism } from 'node:os'
import { extname, join, relative, resolve } from 'node:path'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import { COMPRESSIBLE_EXTENSIONS, PRECOMPRESSED_VARIANTS } from '../server/http/static-file.ts'

/** Below this, the headers of a compressed answer weigh about what compression saves. */
export const MIN_SIZE = 512

const brotli = promisify(brotliCompress)
const gzipped = promisify(gzip)

type Coding = (typeof PRECOMPRESSED_VARIANTS)[number]['coding']

/** Whether a file of the build gets compressed variants: text formats only (images are compressed already). */
export function isPrecompressible(file: string): boolean {
  const name = file.split(/[\\/]/).at(-1) ?? ''
  return COMPRESSIBLE_EXTENSIONS.has(extname(name).toLowerCase())
}

/**
 * The variants worth writing for one file's content: brotli at maximum quality in text mode, gzip level 9, each
 * only when strictly smaller than the content, and none for content under MIN_SIZE bytes.
 */
export async function compressedVariants(content: Uint8Array): Promise<Partial<Record<Coding, Buffer>>> {
  if (content.length < MIN_SIZE) return {}
  const [br, gz] = await Promise.all([
    brotli(content, {
      params: {
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
      },
    }),
    gzipped(content, { level: constants.Z_BEST_COMPRESSION }),
  ])
  const variants: Partial<Record<Coding, Buffer>> = {}
  if (br.length < content.length) variants.br = br
  if (gz.length < content.length) variants.gzip = gz
  return variants
}

export type PrecompressedFile = { file: string; size: number } & Partial<Record<Coding, number>>

/**
 * Writes (overwrites) the variants of one file and removes those no longer worth having, so that a variant
 * never outlives the content it was made from. Returns the sizes written.
 */
export async function precompressFile(path: string): Promise<PrecompressedFile> {
  const content = await readFile(path)
  const variants = await compressedVariants(content)
  const result: PrecompressedFile = { file: path, size: content.length }
  for (const { coding, suffix } of PRECOMPRESSED_VARIANTS) {
    const variant = variants[coding]
    if (variant) {
      await writeFile(path + suffix, variant)
      result[coding] = variant.length
    } else await rm(path + suffix, { force: true })
  }
  return result
}

/** Every text file under `dir` (dot-folders such as `.vite/`, never served, are left out), relative paths. */
export async function precompressibleFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  return entries
    .filter((entry) => entry.isFile() && isPrecompressible(entry.name))
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .filter((file) => !file.split(/[\\/]/).some((segment) => segment.startsWith('.')))
    .sort()
}

/** Precompresses every text file of a build directory, a few at a time (zlib works off the main thread). */
export async function precompressDir(dir: string): Promise<PrecompressedFile[]> {
  const files = await precompressibleFiles(dir)
  const results: PrecompressedFile[] = []
  let next = 0
  const worker = async () => {
    while (next < files.length) {
      const file = files[next++] as string
      results.push({ ...(await precompressFile(join(dir, file))), file })
    }
  }
  await Promise.all(Array.from({ length: Math.min(availableParallelism(), 8) }, worker))
  return results.sort((a, b) => a.file.localeCompare(b.file))
}

if (import.meta.main) {
  const dir = resolve(process.argv[2] ?? 'dist')
  const started = performance.now()
  const results = await precompressDir(dir)
  const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`
  const total = (pick: (file: PrecompressedFile) => number) =>
    kib(results.reduce((sum, file) => sum + pick(file), 0))
  const compressed = results.filter((file) => file.br !== undefined || file.gzip !== undefined)
  console.log(
    `precompress: ${compressed.length} of ${results.length} text files in ${dir}, ` +
      `${total((file) => file.size)} → br ${total((file) => file.br ?? file.size)}, ` +
      `gzip ${total((file) => file.gzip ?? file.size)} (${Math.round(performance.now() - started)} ms)`,
  )
}
