import { and, eq, ne, sql } from 'drizzle-orm'
import { ErrorCode } from '../../../contract/errors.ts'
import { type ApiTokenRow, apiTokens, memberships, users } from '../../db/schema.ts'
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

type LiveToken = {
  token: typeof apiTokens.$inferSelect
  user: typeof users.$inferSelect
  memberRole: (typeof memberships.$inferSelect)['role'] | null
}

/**
 * A token that works, of one of `kinds`: known, its secret right, not revoked nor expired, and, for an
 * organization's token (`organization`, `scim`), its creator still an admin there (otherwise it is revoked, for
 * good: see `revokeTokensOfFormerAdmin`); null otherwise. A valid token over its rate limit throws 429. Its
 * `last_used_at` is written at most once a minute.
 */
export async function liveToken(
  deps: Deps,
  token: string,
  kinds: ReadonlyArray<ApiTokenRow['kind']>,
): Promise<LiveToken | null> {
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
  if (!kinds.includes(stored.kind)) return null
  if (stored.revokedAt || (stored.expiresAt && stored.expiresAt <= now)) return null
  if (stored.kind !== 'personal' && row.memberRole !== 'ADMIN') {
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
  return row
}

/**
 * The caller behind a bearer token, as the session middleware gives it to the routes, or null when the token
 * does not work (`liveToken`) or is an identity provider's (`scim`: it serves `/scim/v2` only).
 *
 * A personal token carries its user's selected organization and role there, as their session would. An
 * organization token carries its own organization as the selected one and the role chosen at creation.
 */
export async function resolveApiToken(deps: Deps, token: string): Promise<CurrentSession | null> {
  const row = await liveToken(deps, token, ['personal', 'organization'])
  if (!row) return null
  const { token: stored } = row
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
