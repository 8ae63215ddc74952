import { subscriptionEndpoints } from '../../../contract/endpoints/subscriptions.ts'
import type { AppDeps } from '../../deps.ts'
import { inPathOrganization } from '../../http/access.ts'
import type { ApiRouter } from '../../http/api-router.ts'
import { organizationSubscription } from './service.ts'

export function subscriptionRoutes(api: ApiRouter, deps: AppDeps): void {
  api.route(
    {
      ...subscriptionEndpoints.one,
      summary:
        "The organization's subscription (plan, period, transfers per month, used this month, renewal of the allowance), or null",
      access: inPathOrganization('read__subscription'),
      responses: { 200: { description: 'The subscription' } },
    },
    async (c, { organization }) =>
      c.json(
        {
          subscription: await organizationSubscription(
            deps.database.db,
            organization.organizationId,
            deps.clock.now(),
          ),
        },
        200,
      ),
  )
}
