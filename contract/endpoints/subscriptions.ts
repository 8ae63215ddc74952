import { OrganizationSubscriptionSchema } from '../commerce.ts'
import { IdParamsSchema } from '../common.ts'
import { endpoint } from './endpoint.ts'

/** An organization's subscription. */
export const subscriptionEndpoints = {
  one: endpoint({
    method: 'get',
    path: '/organizations/:id/subscription',
    params: IdParamsSchema,
    response: OrganizationSubscriptionSchema,
  }),
}
