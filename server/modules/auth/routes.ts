import { authEndpoints } from '../../../contract/endpoints/auth.ts'
import { ErrorCode } from '../../../contract/errors.ts'
import type { AppDeps } from '../../deps.ts'
import type { ApiRouter } from '../../http/api-router.ts'
import { clientIp } from '../../http/client-ip.ts'
import { ApiError } from '../../http/errors.ts'
import { clearSessionCookie, setSessionCookie } from '../../http/session-cookie.ts'
import { coveringProvider } from '../../shared/identity-coverage.ts'
import { activateMemberships } from '../members/service.ts'
import { isOperator, profileOf, selectedRoleOf } from '../profile/service.ts'
import { signInUser } from '../users/service.ts'
import { createSession, deleteSession, sessionIdHash } from './sessions.ts'
import {
  consumeCode,
  consumeLinkToken,
  recordFailedSignIn,
  requestSignIn,
  signInBlockedForIp,
} from './sign-in-tokens.ts'

/** One answer for every failure (unknown, wrong, expired, used, malformed), so none can be told apart. */
const signInFailed = (status: 400 | 401) =>
  new ApiError(status, ErrorCode.signInFailed, 'Sign-in failed. Please try again.')

const rateLimited = (retryAfterS: number) =>
  new ApiError(429, ErrorCode.rateLimited, 'Too many attempts. Please try again later.', {
    headers: { 'Retry-After': String(retryAfterS) },
  })

export function authRoutes(api: ApiRouter, deps: AppDeps): void {
  api.route(
    {
      ...authEndpoints.requestSignIn,
      summary:
        'Send a sign-in link and code to an e-mail address (the same answer whether it is known or not)',
      access: 'public',
      responses: {
        202: { description: 'Sent (or silently not sent: the answer never tells)' },
        409: {
          description:
            "`sso_required`: the address's organization signs its people in itself (`GET /auth/oidc/start`); platform operators keep the code",
        },
        429: { description: 'Too many requests from this network' },
      },
    },
    async (c, { body }) => {
      const covering = await coveringProvider(deps.database.db, body.email)
      if (covering && !isOperator(deps, body.email)) {
        throw new ApiError(
          409,
          ErrorCode.ssoRequired,
          `${covering.organizationName} signs you in with its own account: continue with it.`,
        )
      }
      const result = await requestSignIn(deps, { ...body, ip: clientIp(c, deps.config.trustProxy) })
      if (result.outcome === 'ip-limited') throw rateLimited(result.retryAfterS)
      return c.json({ status: 'sent' as const }, 202)
    },
  )

  api.route(
    {
      ...authEndpoints.signIn,
      summary: 'Sign in with the link token, or with the e-mail address and the 6-digit code',
      access: 'public',
      invalidInput: () => signInFailed(400),
      responses: {
        201: { description: 'Signed in; the session cookie is set' },
        401: { description: '`sign_in_failed`: the link or code is wrong, used or expired' },
        429: { description: 'Too many failed sign-ins from this network' },
      },
    },
    async (c, { body }) => {
      const ip = clientIp(c, deps.config.trustProxy)
      const blocked = await signInBlockedForIp(deps, ip)
      if (blocked) throw rateLimited(blocked.retryAfterS)
      const verified =
        'token' in body
          ? await consumeLinkToken(deps, body.token)
          : await consumeCode(deps, body.email, body.code)
      if (!verified) {
        await recordFailedSignIn(deps, ip)
        throw signInFailed(401)
      }
      const user = await activateMemberships(
        deps.database.db,
        await signInUser(deps, verified.email, verified.locale),
        deps.clock.now(),
      )
      // A browser signing in again (another account, or the same) must not leave its previous session alive.
      if (c.var.session) await deleteSession(deps, c.var.session.idHash)
      const { sessionId, expiresAt } = await createSession(deps, user.id, c.req.header('user-agent'))
      setSessionCookie(c, deps.config, sessionId, { expiresAt, now: deps.clock.now() })
      const selectedRole = await selectedRoleOf(deps, user)
      c.set('session', { idHash: sessionIdHash(deps, sessionId), user, selectedRole })
      return c.json(await profileOf(deps, user, selectedRole), 201)
    },
  )

  api.route(
    {
      ...authEndpoints.signOut,
      summary: 'Sign out: delete the session on the server and clear the cookie',
      access: 'public',
      responses: { 204: { description: 'Signed out (also when there was no session)' } },
    },
    async (c, { session }) => {
      if (session) await deleteSession(deps, session.idHash)
      clearSessionCookie(c, deps.config)
      return c.body(null, 204)
    },
  )
}
