import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { serveStatic } from '@hono/node-server/serve-static'
import type { MiddlewareHandler } from 'hono'

/** Hashed by Vite: cache forever. Everything else must be revalidated, above all index.html and sw.js. */
export function cacheControlFor(path: string): string {
  return path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache'
}

/**
 * The built SPA: files from STATIC_DIR, and index.html for any other path a browser navigates to (the
 * SPA's router, including its own 404 page, takes over). Missing assets stay 404s. Mount after /api.
 */
export function staticSpa(root: string): MiddlewareHandler {
  const serveFile = serveStatic({ root, precompressed: true })
  const indexFile = join(root, 'index.html')
  return async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next()
    const found = await serveFile(c, async () => {})
    if (found instanceof Response) {
      found.headers.set('Cache-Control', cacheControlFor(c.req.path))
      return found
    }
    const wantsHtml = c.req.header('accept')?.includes('text/html') ?? false
    if (c.req.path.startsWith('/assets/') || !wantsHtml) return next()
    c.header('Cache-Control', 'no-cache')
    return c.html(await readFile(indexFile, 'utf8'), 200)
  }
}
