import { type Health, HealthSchema } from '../../../contract/health.ts'
import type { AppDeps } from '../../deps.ts'
import type { ApiRouter } from '../../http/api-router.ts'

export function healthRoutes(api: ApiRouter, deps: Pick<AppDeps, 'database' | 'version'>): void {
  api.route(
    {
      method: 'get',
      path: '/health',
      summary: 'Liveness and database state',
      access: 'public',
      responses: {
        200: { description: 'Everything answers', schema: HealthSchema },
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

export async function checkHealth(deps: Pick<AppDeps, 'database' | 'version'>): Promise<Health> {
  const { driver } = deps.database
  try {
    const latencyMs = await deps.database.ping()
    return { status: 'ok', version: deps.version, database: { driver, state: 'up', latencyMs } }
  } catch {
    return { status: 'degraded', version: deps.version, database: { driver, state: 'down', latencyMs: null } }
  }
}
