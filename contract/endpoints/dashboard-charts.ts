import { DashboardChartsSchema } from '../dashboard.ts'
import { endpoint } from './endpoint.ts'

/** The dashboard's charts, asked for after its figures: a table of its own, off the dashboard's first load. */
export const dashboardChartEndpoints = {
  charts: endpoint({ method: 'get', path: '/stats/dashboard/charts', response: DashboardChartsSchema }),
}
