import { dashboardEndpoints } from '../../../contract/endpoints/dashboard.ts'
import { dashboardChartEndpoints } from '../../../contract/endpoints/dashboard-charts.ts'
import type { AppDeps } from '../../deps.ts'
import { inSelectedOrganization } from '../../http/access.ts'
import type { ApiRouter } from '../../http/api-router.ts'
import { dashboardCharts } from './charts.ts'
import { dashboard } from './service.ts'

export function dashboardRoutes(api: ApiRouter, deps: AppDeps): void {
  api.route(
    {
      ...dashboardEndpoints.counts,
      summary:
        "Counts for the dashboard: the selected organization's keychains, transfers and members, its allowance this month, setup checklist and the caller's own keychains (not for a CONTACT), and the caller's open requests",
      access: 'signedIn',
      responses: { 200: { description: 'The counts' } },
    },
    async (c, { session }) =>
      c.json(
        await dashboard(deps.database.db, {
          userId: session.user.id,
          selectedOrganizationId: session.user.selectedOrganizationId,
          role: session.selectedRole,
          now: deps.clock.now(),
        }),
        200,
      ),
  )

  api.route(
    {
      ...dashboardChartEndpoints.charts,
      summary:
        "The dashboard's charts for the selected organization: its keychains by status (each once) and the transfers authorized in each of the last 12 weeks",
      access: inSelectedOrganization('read__keychain'),
      responses: { 200: { description: 'The charts' } },
    },
    async (c, { organization }) =>
      c.json(await dashboardCharts(deps.database.db, organization.organizationId, deps.clock.now()), 200),
  )
}
