import { createHash } from 'node:crypto'
import { readFile, stat } from 'node:fs/promises'
import { extname } from 'node:path'
import { getMimeType } from 'hono/utils/mime'

/**
 * Text files of the build that `scripts/precompress.ts` writes `.br` and `.gz` variants for, and whose answers
 * therefore vary with Accept-Encoding. Images, fonts and other binary formats are compressed already.
 */
export const COMPRESSIBLE_EXTENSIONS: ReadonlySet<string> = new Set([
  '.js',
  '.mjs',
  '.css',
  '.html',
  '.json',
  '.svg',
  '.webmanifest',
  '.txt',
  '.xml',
  '.map',
])

export type ContentCoding = 'br' | 'gzip' | 'identity'

/** The precompressed variants a build file may have, by our order of preference. */
export const PRECOMPRESSED_VARIANTS = [
  { coding: 'br', suffix: '.br' },
  { coding: 'gzip', suffix: '.gz' },
] as const satisfies ReadonlyArray<{ coding: ContentCoding; suffix: string }>

const isCompressible = (file: string) => COMPRESSIBLE_EXTENSIONS.has(extname(file).toLowerCase())

const Q_VALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/

/**
 * `Accept-Encoding` as a map from lower-cased coding (or `*`) to its q-value (RFC 9110 §12.5.3). Entries whose
 * q-value is malformed are dropped; `x-gzip` counts as `gzip`.
 */
export function parseAcceptEncoding(header: string): Map<string, number> {
  const accepted = new Map<string, number>()
  for (const entry of header.split(',')) {
    const [name = '', ...params] = entry.split(';').map((part) => part.trim())
    if (!name) continue
    let q = 1
    let valid = true
    for (const param of params) {
      const [key = '', value = ''] = param.split('=').map((part) => part.trim())
      if (key.toLowerCase() !== 'q') continue
      if (Q_VALUE.test(value)) q = Number(value)
      else valid = false
    }
    if (!valid) continue
    const coding = name.toLowerCase() === 'x-gzip' ? 'gzip' : name.toLowerCase()
    accepted.set(coding, Math.max(q, accepted.get(coding) ?? 0))
  }
  return accepted
}

/**
 * The coding to answer with, among the `available` ones (identity is always available), from the client's
 * `Accept-Encoding`: the highest q-value wins, ties go to the order of `available` then identity. No header
 * means identity. A coding refused with `;q=0` (or by `*;q=0` when not named) is never chosen; identity, when
 * refused too and nothing else is acceptable, is still what is sent (RFC 9110 allows it, and a 406 for a
 * script would only break the page).
 */
export function negotiateEncoding(
  header: string | undefined,
  available: readonly ContentCoding[],
): ContentCoding {
  if (header === undefined) return 'identity'
  const accepted = parseAcceptEncoding(header)
  const wildcard = accepted.get('*')
  const listed = [...accepted.values()].filter((q) => q > 0)
  // An unnamed identity is acceptable (RFC 9110), as much as the least wanted coding the client names.
  const identityQ = accepted.get('identity') ?? wildcard ?? (listed.length > 0 ? Math.min(...listed) : 1)
  let best: { coding: ContentCoding; q: number } = { coding: 'identity', q: identityQ }
  for (const coding of available) {
    if (coding === 'identity') continue
    const q = accepted.get(coding) ?? wildcard ?? 0
    if (q > 0 && (q > best.q || (q === best.q && best.coding === 'identity'))) best = { coding, q }
  }
  return best.coding
}

/** RFC 9110 weak comparison of `If-None-Match` against one ETag (`*` matches any). */
function matchesIfNoneMatch(header: string, etag: string): boolean {
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '')
  return header.trim() === '*' || header.split(',').some((tag) => opaque(tag) === opaque(etag))
}

export type SendFileOptions = {
  /** `Cache-Control` of the answer (the 304 too). */
  cacheControl: string
}

/**
 * Answers a GET or HEAD with one file, or null when there is no such regular file. A compressible file is sent
 * as its precompressed `.br` or `.gz` variant when the client accepts it (and the variant is not older than the
 * file), always with `Vary: Accept-Encoding`; the Content-Type is the file's own, Content-Length that of the
 * bytes sent, the ETag differs per variant, and a matching `If-None-Match` (or, without one, an
 * `If-Modified-Since` not older than the file) answers 304. Range requests get the whole file (200), as RFC 9110
 * allows.
 */
export async function sendFile(
  request: Request,
  file: string,
  options: SendFileOptions,
): Promise<Response | null> {
  const original = await stat(file).catch(() => null)
  if (!original?.isFile()) return null

  const headers = new Headers({
    'Content-Type': getMimeType(file) ?? 'application/octet-stream',
    'Cache-Control': options.cacheControl,
    'Last-Modified': original.mtime.toUTCString(),
  })
  let path = file
  let coding: ContentCoding = 'identity'
  if (isCompressible(file)) {
    headers.set('Vary', 'Accept-Encoding')
    const variants = await Promise.all(
      PRECOMPRESSED_VARIANTS.map(async ({ coding, suffix }) => {
        const variant = await stat(file + suffix).catch(() => null)
        // A variant older than its file was left by an earlier build: never send stale bytes.
        return variant?.isFile() && variant.mtimeMs >= original.mtimeMs ? { coding, suffix } : null
      }),
    )
    const available = variants.filter((variant) => variant !== null)
    coding = negotiateEncoding(
      request.headers.get('accept-encoding') ?? undefined,
      available.map((variant) => variant.coding),
    )
    const chosen = available.find((variant) => variant.coding === coding)
    if (chosen) {
      path = file + chosen.suffix
      headers.set('Content-Encoding', coding)
    }
  }
  // Per file and variant, from the file's path, size and time: a rebuild changes it, re-running precompress
  // does not, and two files answered on one address (a page in either language) never share one.
  const suffix = coding === 'identity' ? '' : `-${coding}`
  const which = createHash('sha256').update(file).digest('base64url').slice(0, 8)
  headers.set(
    'ETag',
    `"${which}-${original.size.toString(36)}-${Math.floor(original.mtimeMs).toString(36)}${suffix}"`,
  )

  const ifNoneMatch = request.headers.get('if-none-match')
  const ifModifiedSince = request.headers.get('if-modified-since')
  const notModified =
    ifNoneMatch !== null
      ? matchesIfNoneMatch(ifNoneMatch, headers.get('ETag') ?? '')
      : ifModifiedSince !== null && Math.floor(original.mtimeMs / 1000) * 1000 <= Date.parse(ifModifiedSince)
  if (notModified) {
    headers.delete('Content-Type')
    headers.delete('Content-Encoding')
    return new Response(null, { status: 304, headers })
  }

  const body = await readFile(path).catch(() => null)
  if (!body) return null
  headers.set('Content-Length', String(body.length))
  return new Response(request.method === 'HEAD' ? null : body, { status: 200, headers })
}
