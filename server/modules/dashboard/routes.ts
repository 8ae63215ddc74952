import { dashboardEndpoints } from '../../../contract/endpoints/dashboard.ts'
import type { AppDeps } from '../../deps.ts'
import type { ApiRouter } from '../../http/api-router.ts'
import { dashboard } from './service.ts'

export function dashboardRoutes(api: ApiRouter, deps: AppDeps): void {
  api.route(
    {
      ...dashboardEndpoints.counts,
      summary:
        "Counts for the dashboard: the selected organization's keychains, transfers and members (not for a CONTACT), and the caller's open requests",
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
}
