import { DashboardSchema } from '../transfers.ts'
import { endpoint } from './endpoint.ts'

/** The dashboard's figures. */
export const dashboardEndpoints = {
  counts: endpoint({ method: 'get', path: '/stats/dashboard', response: DashboardSchema }),
}
