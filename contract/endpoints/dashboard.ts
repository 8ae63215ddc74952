import { DashboardViewSchema } from '../dashboard.ts'
import { endpoint } from './endpoint.ts'

/** The dashboard's figures. */
export const dashboardEndpoints = {
  counts: endpoint({ method: 'get', path: '/stats/dashboard', response: DashboardViewSchema }),
}
