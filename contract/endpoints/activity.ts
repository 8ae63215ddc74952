import { ChainCheckSchema } from '../activity.ts'
import { endpoint } from './endpoint.ts'

/** The selected organization's ledger. */
export const activityEndpoints = {
  verification: endpoint({ method: 'get', path: '/activity/verification', response: ChainCheckSchema }),
}
