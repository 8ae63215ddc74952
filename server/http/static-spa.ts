import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { serveStatic } from '@hono/node-server/serve-static'
import type { MiddlewareHandler } from 'hono'

/** Hashed by Vite: cache forever. Everything else must be revalidated, above all index.html and sw.js. */
export function cacheControlFor(path: string): string {
  return path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache'
}

function decoded(path: string): string {
  try {
    return decodeURIComponent(path)
  } catch {
    return path
  }
}

/** `/.vite/manifest.json`, `/.git/…`, `/%2eenv`: build and tool files are never served. */
const isDotPath = (path: string) =>
  decoded(path)
    .split('/')
    .some((segment) => segment.startsWith('.'))
const isUnder = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`)
const hasExtension = (path: string) => /\.[^/]*$/.test(path.split('/').at(-1) ?? '')

/**
 * The built SPA: files from STATIC_DIR, and index.html for any other GET/HEAD of a page path (no file
 * extension, outside /api and /assets), whatever the Accept header says; the SPA's router, including its
 * own 404 page, takes over. Missing files and dot-paths stay 404s. Mount after /api.
 */
export function staticSpa(root: string): MiddlewareHandler {
  const serveFile = serveStatic({ root, precompressed: true })
  const indexFile = join(root, 'index.html')
  return async (c, next) => {
    const path = c.req.path
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next()
    if (isUnder(path, '/api') || isDotPath(path)) return next()
    const found = await serveFile(c, async () => {})
    if (found instanceof Response) {
      found.headers.set('Cache-Control', cacheControlFor(path))
      return found
    }
    if (isUnder(path, '/assets') || hasExtension(decoded(path))) return next()
    c.header('Cache-Control', 'no-cache')
    return c.html(await readFile(indexFile, 'utf8'), 200)
  }
}
