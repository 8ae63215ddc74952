import type { MiddlewareHandler } from 'hono'
import type { AppDeps } from '../deps.ts'
import type { AppEnv, CurrentSession } from './env.ts'
import { clearSessionCookie, readSessionCookie } from './session-cookie.ts'

const SESSION_ID = /^[A-Za-z0-9_-]{43}$/

/**
 * Resolves the session cookie into `c.var.session` with `resolve` (the auth module's, given by the app); a dead
 * cookie is cleared so the browser stops sending it.
 */
export function sessionMiddleware(
  deps: Pick<AppDeps, 'config'>,
  resolve: (sessionId: string) => Promise<CurrentSession | null>,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const value = readSessionCookie(c, deps.config)
    if (value !== undefined) {
      const session = SESSION_ID.test(value) ? await resolve(value) : null
      c.set('session', session)
      if (!session) clearSessionCookie(c, deps.config)
    }
    await next()
  }
}
