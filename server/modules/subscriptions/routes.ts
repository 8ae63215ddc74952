import { OrganizationSubscriptionSchema } from '../../../contract/commerce.ts'
import { IdParamsSchema } from '../../../contract/common.ts'
import type { AppDeps } from '../../deps.ts'
import { inPathOrganization } from '../../http/access.ts'
import type { ApiRouter } from '../../http/api-router.ts'
import { organizationSubscription } from './service.ts'

export function subscriptionRoutes(api: ApiRouter, deps: AppDeps): void {
  api.route(
    {
      method: 'get',
      path: '/organizations/:id/subscription',
      summary:
        "The organization's subscription (plan, period, transfers per month, used this month, renewal of the allowance), or null",
      access: inPathOrganization('read__subscription'),
      params: IdParamsSchema,
      responses: { 200: { description: 'The subscription', schema: OrganizationSubscriptionSchema } },
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
