import { PlanListSchema } from '../commerce.ts'
import { endpoint } from './endpoint.ts'

/** The subscription plans on offer. */
export const planEndpoints = {
  list: endpoint({ method: 'get', path: '/plans', response: PlanListSchema }),
}
