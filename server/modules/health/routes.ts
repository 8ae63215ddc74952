import { healthEndpoints } from '../../../contract/endpoints/health.ts'
import { type Health, HealthSchema } from '../../../contract/health.ts'
import type { AppDeps } from '../../deps.ts'
import type { ApiRouter } from '../../http/api-router.ts'

/** The liveness probe's path; `server/main.ts` answers it before the app (see `livenessAnswer`). */
export const LIVENESS_PATH = `/api${healthEndpoints.live.path}`

/** The liveness answer's body, the same through the app and through the server's shortcut. */
export function livenessBody(version: string): string {
  return JSON.stringify({ status: 'ok', version })
}

export function healthRoutes(api: ApiRouter, deps: Pick<AppDeps, 'database' | 'version'>): void {
  const live = livenessBody(deps.version)
  api.route(
    {
      ...healthEndpoints.live,
      summary:
        'Liveness: the process answers; asks no database (a supervisor restarts the process when it fails)',
      access: 'public',
      responses: { 200: { description: 'Alive' } },
    },
    (c) => {
      c.header('Cache-Control', 'no-store')
      c.header('Content-Type', 'application/json')
      return c.body(live, 200)
    },
  )

  api.route(
    {
      ...healthEndpoints.ready,
      summary: 'Readiness: the database answers (a load balancer sends traffic only then)',
      access: 'public',
      responses: {
        200: { description: 'Everything answers' },
        503: { description: 'The database does not answer', schema: HealthSchema },
      },
    },
    async (c) => {
      const health = await checkHealth(deps)
      c.header('Cache-Control', 'no-store')
      return c.json(health, health.status === 'ok' ? 200 : 503)
    },
  )
}

async function checkHealth(deps: Pick<AppDeps, 'database' | 'version'>): Promise<Health> {
  const { driver } = deps.database
  try {
    const latencyMs = await deps.database.ping()
    return { status: 'ok', version: deps.version, database: { driver, state: 'up', latencyMs } }
  } catch {
    return { status: 'degraded', version: deps.version, database: { driver, state: 'down', latencyMs: null } }
  }
}
