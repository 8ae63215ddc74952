import type { MiddlewareHandler } from 'hono'
import { ErrorCode } from '../../contract/errors.ts'
import type { AppDeps } from '../deps.ts'
import { bearerTokenOf } from './bearer.ts'
import type { AppEnv, CurrentSession } from './env.ts'
import { ApiError } from './errors.ts'
import { clearSessionCookie, readSessionCookie } from './session-cookie.ts'

const SESSION_ID = /^[A-Za-z0-9_-]{43}$/

const invalidToken = () =>
  new ApiError(401, ErrorCode.unauthenticated, 'The API token is unknown, revoked or expired.', {
    headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"' },
  })

/**
 * Resolves the caller into `c.var.session`: from an `Authorization: Bearer` API token when the request has
 * one (`resolveToken`; a token that does not resolve answers 401 at once, and the cookie is then never read),
 * else from the session cookie (`resolve`, the auth module's; a dead cookie is cleared so the browser stops
 * sending it).
 */
export function sessionMiddleware(
  deps: Pick<AppDeps, 'config'>,
  resolve: (sessionId: string) => Promise<CurrentSession | null>,
  resolveToken: (token: string) => Promise<CurrentSession | null> = async () => null,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const token = bearerTokenOf(c)
    if (token !== undefined) {
      const caller = token === '' ? null : await resolveToken(token)
      if (!caller) throw invalidToken()
      c.set('session', caller)
      await next()
      return
    }
    const value = readSessionCookie(c, deps.config)
    if (value !== undefined) {
      const session = SESSION_ID.test(value) ? await resolve(value) : null
      c.set('session', session)
      if (!session) clearSessionCookie(c, deps.config)
    }
    await next()
  }
}
