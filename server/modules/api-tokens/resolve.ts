import { and, eq, ne, sql } from 'drizzle-orm'
import { ErrorCode } from '../../../contract/errors.ts'
import { apiTokens, memberships, users } from '../../db/schema.ts'
import type { AppDeps } from '../../deps.ts'
import type { CurrentSession } from '../../http/env.ts'
import { ApiError } from '../../http/errors.ts'
import { hitRateLimit, type RateLimitPolicy } from '../../http/rate-limit.ts'
import { sameHash } from '../../shared/secret-tokens.ts'
import { apiTokenHash, prefixOf } from './secrets.ts'
import { revokeTokensOfFormerAdmin } from './service.ts'

/** Requests per token and minute, counted in the database (so across every API process). */
export const API_TOKEN_RATE_LIMIT: RateLimitPolicy = { limit: 600, windowMs: 60_000 }
/** As with sessions: last_used_at is written at most once a minute, not on every request. */
const TOUCH_INTERVAL_MS = 60_000

type Deps = Pick<AppDeps, 'database' | 'clock' | 'secret'>

export const rateLimitKeyOf = (tokenId: string) => `api-token:${tokenId}`

/**
 * The caller behind a bearer token, as the session middleware gives it to the routes, or null when the token
 * is unknown, revoked, expired, or an organization token whose creator is no longer an admin there (then it is
 * revoked, for good: see `revokeTokensOfFormerAdmin`). A valid token over its rate limit throws 429.
 *
 * A personal token carries its user's selected organization and role there, as their session would. An
 * organization token carries its own organization as the selected one and the role chosen at creation.
 */
export async function resolveApiToken(deps: Deps, token: string): Promise<CurrentSession | null> {
  const prefix = prefixOf(token)
  if (!prefix) return null
  const { db } = deps.database
  const now = deps.clock.now()
  const [row] = await db
    .select({ token: apiTokens, user: users, memberRole: memberships.role })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .leftJoin(
      memberships,
      and(
        eq(memberships.userId, users.id),
        eq(
          memberships.organizationId,
          sql`coalesce(${apiTokens.organizationId}, ${users.selectedOrganizationId})`,
        ),
        ne(memberships.status, 'DISABLED'),
      ),
    )
    .where(eq(apiTokens.prefix, prefix))
  if (!row || !sameHash(row.token.secretHash, apiTokenHash(deps.secret, token))) return null
  const { token: stored } = row
  if (stored.revokedAt || (stored.expiresAt && stored.expiresAt <= now)) return null
  if (stored.kind === 'organization' && row.memberRole !== 'ADMIN') {
    await revokeTokensOfFormerAdmin(
      db,
      { userId: stored.userId, organizationId: stored.organizationId! },
      now,
    )
    return null
  }

  const limit = await hitRateLimit(db, rateLimitKeyOf(stored.id), API_TOKEN_RATE_LIMIT, now)
  if (limit.limited) {
    throw new ApiError(429, ErrorCode.rateLimited, 'Too many requests with this API token; wait a moment.', {
      headers: { 'Retry-After': String(limit.retryAfterS) },
    })
  }
  if (!stored.lastUsedAt || now.getTime() - stored.lastUsedAt.getTime() >= TOUCH_INTERVAL_MS) {
    await db.update(apiTokens).set({ lastUsedAt: now }).where(eq(apiTokens.id, stored.id))
  }
  const idHash = `api-token:${stored.id}`
  if (stored.kind === 'personal') {
    return {
      idHash,
      user: row.user,
      selectedRole: row.memberRole,
      token: { id: stored.id, kind: 'personal' },
    }
  }
  const organizationId = stored.organizationId!
  const role = stored.role!
  return {
    idHash,
    user: { ...row.user, selectedOrganizationId: organizationId },
    selectedRole: role,
    token: { id: stored.id, kind: 'organization', organizationId, role },
  }
}
