import { queryOptions } from '@tanstack/react-query'
import { DashboardSchema } from '../../../contract/transfers.ts'
import { api } from '../../lib/api.ts'

/** Counts of the selected organization and my open requests; keyed by the organization it was asked for. */
export const dashboardQuery = (organizationId: string | null) =>
  queryOptions({
    queryKey: ['transfers', 'dashboard', organizationId ?? ''] as const,
    queryFn: () => api('/stats/dashboard', { schema: DashboardSchema }),
  })
