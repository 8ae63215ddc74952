import { createHash, timingSafeEqual } from 'node:crypto'
import { sql } from 'drizzle-orm'
import type { Context, MiddlewareHandler } from 'hono'
import { routePath } from 'hono/route'
import { ErrorCode } from '../../../contract/errors.ts'
import type { AppDeps } from '../../deps.ts'
import type { AppEnv } from '../../http/env.ts'
import { ApiError, errorResponse, notFound } from '../../http/errors.ts'
import { REPLAYED_HEADER } from '../../http/idempotency.ts'
import { type Gauge, RequestMetrics } from './registry.ts'

export const METRICS_PATH = '/api/metrics'

/** Counts every answer of the app by its route pattern (not its path: ids would make a series each). */
export function recordRequests(metrics: RequestMetrics): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now()
    await next()
    metrics.observe(
      c.req.method,
      routePath(c),
      c.res.status,
      (performance.now() - started) / 1000,
      c.res.headers.has(REPLAYED_HEADER),
    )
  }
}

const digest = (value: string) => createHash('sha256').update(value).digest()

/** Compared as digests: equal lengths for timingSafeEqual, and no early exit on the first differing byte. */
function sameToken(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected))
}

/**
 * `GET /api/metrics` for a Prometheus server holding METRICS_TOKEN as its bearer token. Without METRICS_TOKEN
 * the endpoint does not exist (404, as any unknown path); a missing or wrong token answers 401.
 */
export function metricsEndpoint(
  deps: Pick<AppDeps, 'config' | 'database' | 'clock'>,
  metrics: RequestMetrics,
) {
  return async (c: Context<AppEnv>) => {
    const expected = deps.config.metricsToken
    if (expected === null) return errorResponse(c, notFound('No such API endpoint.'))
    const given = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '')?.[1]
    if (given === undefined || !sameToken(given, expected)) {
      return errorResponse(
        c,
        new ApiError(
          401,
          ErrorCode.unauthenticated,
          'The metrics need the METRICS_TOKEN as a bearer token.',
          {
            headers: { 'WWW-Authenticate': 'Bearer realm="metrics"' },
          },
        ),
      )
    }
    const gauges = await jobGauges(deps)
    c.header('Cache-Control', 'no-store')
    c.header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
    return c.body(metrics.render(gauges), 200)
  }
}

type JobCounts = { kind: string; due: number; running: number; scheduled: number; failed: number }

/** The job queue, by kind: due (waiting for a runner), running (leased), scheduled (later), failed for good. */
async function jobGauges(deps: Pick<AppDeps, 'database' | 'clock'>): Promise<Gauge[]> {
  const now = sql`${deps.clock.now().toISOString()}::timestamptz`
  const result = (await deps.database.db.execute(sql`
    select kind,
      count(*) filter (where done_at is null and failed_at is null and run_at <= ${now}
        and (locked_until is null or locked_until <= ${now}))::int as due,
      count(*) filter (where done_at is null and failed_at is null and locked_until > ${now})::int as running,
      count(*) filter (where done_at is null and failed_at is null and run_at > ${now}
        and (locked_until is null or locked_until <= ${now}))::int as scheduled,
      count(*) filter (where failed_at is not null)::int as failed
    from jobs where done_at is null group by kind order by kind`)) as unknown as { rows: JobCounts[] }
  const samples = (state: 'due' | 'running' | 'scheduled') =>
    result.rows.map((row) => ({ labels: { kind: row.kind, state }, value: Number(row[state]) }))
  return [
    {
      name: 'trousseau_job_queue_depth',
      help: 'Jobs not done yet, by kind and state (due: waiting for a runner; running: leased; scheduled: later).',
      samples: [...samples('due'), ...samples('running'), ...samples('scheduled')],
    },
    {
      name: 'trousseau_jobs_failed',
      help: 'Jobs that failed for good (every attempt spent), kept until the housekeeping prunes them.',
      samples: result.rows.map((row) => ({ labels: { kind: row.kind }, value: Number(row.failed) })),
    },
  ]
}

export { RequestMetrics }
