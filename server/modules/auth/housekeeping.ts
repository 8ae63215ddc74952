import { lt } from 'drizzle-orm'
import { emailTokens } from '../../db/schema.ts'
import type { AppDeps } from '../../deps.ts'
import { pruneIdempotencyKeys } from '../../http/idempotency.ts'
import { pruneRateLimits } from '../../http/rate-limit.ts'
import { pruneJobs } from '../../jobs/queue.ts'
import { pruneWebhookDeliveries } from '../webhooks/retention.ts'
import { pruneSessions } from './sessions.ts'

const HOUR = 60 * 60 * 1000
/** Spent sign-in tokens are kept a day for investigating abuse, then dropped. */
const TOKEN_RETENTION_MS = 24 * HOUR

/**
 * Deletes dead sessions, old sign-in tokens, past rate-limit windows, month-old idempotency keys, old settled
 * jobs and month-old settled webhook deliveries. Safe to run on every process.
 */
export async function pruneExpired(deps: Pick<AppDeps, 'database' | 'clock'>): Promise<void> {
  const now = deps.clock.now()
  const dayAgo = new Date(now.getTime() - TOKEN_RETENTION_MS)
  await pruneSessions(deps, now)
  await deps.database.db.delete(emailTokens).where(lt(emailTokens.expiresAt, dayAgo))
  await pruneRateLimits(deps.database.db, dayAgo)
  await pruneIdempotencyKeys(deps.database.db, now)
  await pruneJobs(deps.database.db, now)
  await pruneWebhookDeliveries(deps.database.db, now)
}

export function startHousekeeping(deps: Pick<AppDeps, 'database' | 'clock' | 'logger'>): { stop(): void } {
  const run = () =>
    pruneExpired(deps).catch((error: unknown) => deps.logger.warn({ err: error }, 'housekeeping failed'))
  const timer = setInterval(run, HOUR)
  timer.unref()
  return { stop: () => clearInterval(timer) }
}
