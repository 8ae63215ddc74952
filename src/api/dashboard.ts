import { queryOptions } from '@tanstack/react-query'
import { dashboardEndpoints } from '../../contract/endpoints/dashboard.ts'
import { call } from '../lib/call.ts'
import { mirrored, mirrorStore } from '../offline/mirrored.ts'

/** Counts of the selected organization and my open requests; keyed by the organization it was asked for. */
export const dashboardQuery = (organizationId: string | null) =>
  queryOptions({
    queryKey: ['transfers', 'dashboard', organizationId ?? ''] as const,
    queryFn: () =>
      mirrored(
        () => call(dashboardEndpoints.counts),
        async (dashboard) => (await mirrorStore()).mirrorDashboard(organizationId, dashboard),
        async () => (await mirrorStore()).mirroredDashboard(organizationId),
      ),
  })
