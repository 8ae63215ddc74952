import { and, eq, lt, sql } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { rateLimits } from '../db/schema.ts'

export type RateLimitPolicy = { limit: number; windowMs: number }

export type RateLimitState = {
  count: number
  limited: boolean
  /** Seconds until the current window ends, for a Retry-After header. */
  retryAfterS: number
}

function windowOf(policy: RateLimitPolicy, now: Date) {
  const start = Math.floor(now.getTime() / policy.windowMs) * policy.windowMs
  return {
    windowStart: new Date(start),
    retryAfterS: Math.max(1, Math.ceil((start + policy.windowMs - now.getTime()) / 1000)),
  }
}

/**
 * Counts one event in a fixed window with a single atomic upsert, so concurrent requests (on any number of
 * API processes sharing the database) never lose an increment.
 */
export async function hitRateLimit(
  db: Db,
  key: string,
  policy: RateLimitPolicy,
  now: Date,
): Promise<RateLimitState> {
  const { windowStart, retryAfterS } = windowOf(policy, now)
  const [row] = await db
    .insert(rateLimits)
    .values({ key, windowStart, count: 1 })
    .onConflictDoUpdate({
      target: [rateLimits.key, rateLimits.windowStart],
      set: { count: sql`${rateLimits.count} + 1` },
    })
    .returning({ count: rateLimits.count })
  const count = row?.count ?? 1
  return { count, limited: count > policy.limit, retryAfterS }
}

/** The current window's count without counting anything (to refuse before doing work). */
export async function peekRateLimit(
  db: Db,
  key: string,
  policy: RateLimitPolicy,
  now: Date,
): Promise<RateLimitState> {
  const { windowStart, retryAfterS } = windowOf(policy, now)
  const [row] = await db
    .select({ count: rateLimits.count })
    .from(rateLimits)
    .where(and(eq(rateLimits.key, key), eq(rateLimits.windowStart, windowStart)))
  const count = row?.count ?? 0
  return { count, limited: count >= policy.limit, retryAfterS }
}

export async function pruneRateLimits(db: Db, before: Date): Promise<void> {
  await db.delete(rateLimits).where(lt(rateLimits.windowStart, before))
}
