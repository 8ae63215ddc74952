import { resolve, sep } from 'node:path'
import type { Context, MiddlewareHandler } from 'hono'
import { prerenderedPageFor } from './public-pages.ts'
import { PRECOMPRESSED_VARIANTS, sendFile } from './static-file.ts'

/** Hashed by Vite: cache forever. Everything else must be revalidated, above all index.html and sw.js. */
function cacheControlFor(path: string): string {
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
/** `x.js.br`, `x.js.gz`: only ever sent as a negotiated variant of `x.js`, never by their own name. */
const isVariantName = (path: string) => PRECOMPRESSED_VARIANTS.some(({ suffix }) => path.endsWith(suffix))

/** The absolute path of a file of the build, or null when `relative` would leave `root` or is not a plain path. */
function inRoot(root: string, relative: string): string | null {
  if (relative.includes('\0') || relative.includes('\\')) return null
  const base = resolve(root)
  const file = resolve(base, `.${relative.startsWith('/') ? '' : '/'}${relative}`)
  return file.startsWith(base + sep) ? file : null
}

/**
 * Answers a GET or HEAD with one file of the build, given by its path relative to `root` (`index.html`,
 * `pages/en/sign-in.html`), negotiated like every static file: its `.br` or `.gz` variant when the client
 * accepts one, `Vary: Accept-Encoding`, ETag and 304. `cacheControl` defaults to the rule for that path
 * (`no-cache` outside `/assets/`). Null when the file does not exist, so the caller can fall through.
 */
function serveBuildFile(
  c: Context,
  root: string,
  file: string,
  cacheControl = cacheControlFor(`/${file.replace(/^\/+/, '')}`),
): Promise<Response | null> {
  const absolute = inRoot(root, file)
  return absolute ? sendFile(c.req.raw, absolute, { cacheControl }) : Promise.resolve(null)
}

/** The HTML document of the build that answers a page path (the SPA's shell, a prerendered page): `no-cache`. */
export const serveBuildPage = (c: Context, root: string, file: string) =>
  serveBuildFile(c, root, file, 'no-cache')

/**
 * The built SPA: the prerendered public pages on their paths (landing, sign-in), files from STATIC_DIR, and
 * index.html for any other GET/HEAD of a page path (no file
 * extension, outside /api and /assets), whatever the Accept header says; the SPA's router, including its
 * own 404 page, takes over. Both go through the same content negotiation (precompressed variants). Missing
 * files and dot-paths stay 404s. Mount after /api.
 */
export function staticSpa(root: string): MiddlewareHandler {
  return async (c, next) => {
    const path = c.req.path
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next()
    if (isUnder(path, '/api') || isDotPath(path)) return next()
    const prerendered = prerenderedPageFor(path, new URL(c.req.url).searchParams, {
      cookie: c.req.header('Cookie'),
      fetchSite: c.req.header('Sec-Fetch-Site'),
    })
    const page = prerendered ? await serveBuildPage(c, root, prerendered) : null
    if (page) {
      // The French address answers the English page to a visitor whose locale cookie says English.
      page.headers.append('Vary', 'Cookie')
      return page
    }
    const name = decoded(path)
    if (!isVariantName(name)) {
      const found =
        (await serveBuildFile(c, root, name, cacheControlFor(path))) ??
        (name.endsWith('/') || !hasExtension(name)
          ? await serveBuildFile(c, root, `${name.replace(/\/+$/, '')}/index.html`, cacheControlFor(path))
          : null)
      if (found) return found
    }
    if (isUnder(path, '/assets') || hasExtension(name)) return next()
    return (await serveBuildPage(c, root, 'index.html')) ?? next()
  }
}
