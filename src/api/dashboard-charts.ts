import { queryOptions } from '@tanstack/react-query'
import { dashboardChartEndpoints } from '../../contract/endpoints/dashboard-charts.ts'
import { call } from '../lib/call.ts'

/**
 * The dashboard's two charts (apart from `dashboard.ts`: they load in their own chunk, after the counts); refreshed
 * with the transfers' queries (their keys begin alike).
 */
export const dashboardChartsQuery = (organizationId: string) =>
  queryOptions({
    queryKey: ['transfers', 'dashboard-charts', organizationId] as const,
    queryFn: () => call(dashboardChartEndpoints.charts),
  })
