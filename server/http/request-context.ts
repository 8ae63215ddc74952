import { randomUUID } from 'node:crypto'
import type { MiddlewareHandler } from 'hono'
import type { Logger } from 'pino'
import type { AppEnv } from './env.ts'

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/

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
    // The path only: a query string may carry a sign-in token.
    log.info(
      {
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        durationMs: Math.round((performance.now() - started) * 10) / 10,
        userId: c.var.session?.user.id,
      },
      'request',
    )
  }
}
