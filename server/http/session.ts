import type { MiddlewareHandler } from 'hono'
import type { AppDeps } from '../deps.ts'
import { clearSessionCookie, readSessionCookie } from '../modules/auth/cookie.ts'
import { resolveSession } from '../modules/auth/sessions.ts'
import type { AppEnv } from './env.ts'

const SESSION_ID = /^[A-Za-z0-9_-]{43}$/

/** Resolves the session cookie into `c.var.session`; a dead cookie is cleared so the browser stops sending it. */
export function sessionMiddleware(
  deps: Pick<AppDeps, 'config' | 'database' | 'clock' | 'secret'>,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const value = readSessionCookie(c, deps.config)
    if (value !== undefined) {
      const session = SESSION_ID.test(value) ? await resolveSession(deps, value) : null
      c.set('session', session)
      if (!session) clearSessionCookie(c, deps.config)
    }
    await next()
  }
}
