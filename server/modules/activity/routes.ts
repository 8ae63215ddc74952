import { activityEndpoints } from '../../../contract/endpoints/activity.ts'
import type { AppDeps } from '../../deps.ts'
import { inSelectedOrganization } from '../../http/access.ts'
import type { ApiRouter } from '../../http/api-router.ts'
import { verifyChain } from './chain.ts'

/** The organization's ledger: its event log and the verification of its hash chain. */
export function activityRoutes(api: ApiRouter, deps: AppDeps): void {
  api.route(
    {
      ...activityEndpoints.verification,
      summary:
        "Verify the selected organization's event log: every entry's hash recomputed against the one before it",
      access: inSelectedOrganization('read__activity'),
      responses: { 200: { description: 'Whether the chain holds, and where it breaks' } },
    },
    async (c, { organization }) =>
      c.json(await verifyChain(deps.database.db, organization.organizationId), 200),
  )
}
