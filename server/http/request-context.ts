import { randomUUID } from 'node:crypto'
import type { Context, MiddlewareHandler } from 'hono'
import { matchedRoutes } from 'hono/route'
import type { Logger } from 'pino'
import type { AppEnv } from './env.ts'

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/

/**
 * The path parameters whose values are logged: ids of rows that only a session (or API token) with the right
 * permission reaches, a tag's public id (printed on the tag, public by design), a sandbox outcome word and an
 * organization's mail domain (published in its DNS, named only to its admins' routes). Any
 * other parameter is logged as its name (`/api/calendar/:token`): a route that carries a secret in its path (a
 * calendar feed's token, a sandbox payment session) is redacted without anyone having to remember it.
 */
export const LOGGED_PATH_PARAMETERS: ReadonlySet<string> = new Set([
  'id',
  'tokenId',
  'keyId',
  'hookId',
  'deviceId',
  'extensionId',
  'publicId',
  'outcome',
  'domain',
])

const segmentsOf = (path: string) => path.split('/')

/** `:token`, `:token{…}` or `:token?` → `token`; null for a literal segment. */
const parameterOf = (segment: string) => /^:([^{?]+)/.exec(segment)?.[1] ?? null

/**
 * The path as logged. When a route of the request's method matched it, every segment that route declares as
 * a parameter not in `LOGGED_PATH_PARAMETERS` is replaced by its name (any matched route's declaration
 * counts). An API path no route of its method matched (a 404, a 405, a preflight, a doubled slash) may still be
 * a secret's address, called with another method or mangled: only its first segment after `api` is kept.
 * Other paths (the SPA's pages and files) are kept whole: the links the server sends carry their secrets in
 * the query (a sign-in token), which is never logged.
 */
function loggedPath(c: Context): string {
  const path = c.req.path
  const segments = segmentsOf(path)
  const patterns = matchedRoutes(c)
    .map((route) => segmentsOf(route.path))
    .filter((pattern) => pattern.length === segments.length && !pattern.includes('*'))
  if (patterns.length > 0)
    return segments
      .map((segment, index) => {
        const secret = patterns
          .map((pattern) => parameterOf(pattern[index]!))
          .find((name) => name !== null && !LOGGED_PATH_PARAMETERS.has(name))
        return secret ? `:${secret}` : segment
      })
      .join('/')
  const api = segments.indexOf('api')
  if (api === -1 || segments.length <= api + 2) return path
  return `${segments.slice(0, api + 2).join('/')}/…`
}

/** Request id (kept from a proxy's X-Request-Id when sane), child logger, and one log line per request. */
export function requestContext(logger: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const incoming = c.req.header('x-request-id')
    const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID()
    const log = logger.child({ reqId: requestId })
    c.set('requestId', requestId)
    c.set('log', log)
    c.set('session', null)
    const started = performance.now()
    await next()
    c.res.headers.set('X-Request-Id', requestId)
    // Never the query string (a sign-in token), nor a header (cookies, bearer tokens, signatures).
    log.info(
      {
        method: c.req.method,
        path: loggedPath(c),
        status: c.res.status,
        durationMs: Math.round((performance.now() - started) * 10) / 10,
        userId: c.var.session?.user.id,
      },
      'request',
    )
  }
}
