import { planEndpoints } from '../../../contract/endpoints/plans.ts'
import type { AppDeps } from '../../deps.ts'
import type { ApiRouter } from '../../http/api-router.ts'
import { listPlans } from './service.ts'

export function planRoutes(api: ApiRouter, deps: AppDeps): void {
  api.route(
    {
      ...planEndpoints.list,
      summary: 'The subscription plans on offer (monthly and yearly), with their transfers per month',
      access: 'signedIn',
      responses: { 200: { description: 'The plans' } },
    },
    async (c) => c.json({ data: await listPlans(deps.database.db) }, 200),
  )
}
