import type { ActivityQuery } from '../../../contract/activity.ts'
import { activityEndpoints } from '../../../contract/endpoints/activity.ts'
import type { AppDeps } from '../../deps.ts'
import { inSelectedOrganization } from '../../http/access.ts'
import type { ApiRouter } from '../../http/api-router.ts'
import { timeZoneOf } from '../subscriptions/service.ts'
import { verifyChain } from './chain.ts'
import { activityCsv, listActivity } from './log.ts'

/** The organization's ledger: its event log and the verification of its hash chain. */
export function activityRoutes(api: ApiRouter, deps: AppDeps): void {
  const { db } = deps.database
  const scopeOf = async (organizationId: string, query: ActivityQuery) => ({
    organizationId,
    timeZone: await timeZoneOf(db, organizationId),
    query,
  })

  api.route(
    {
      ...activityEndpoints.list,
      summary:
        "The selected organization's ledger, newest first: what happened, who did it, when; by kind, person, keychain, tag and days",
      access: inSelectedOrganization('read__activity'),
      responses: { 200: { description: 'A page of entries' } },
    },
    async (c, { organization, query }) =>
      c.json(await listActivity(db, await scopeOf(organization.organizationId, query)), 200),
  )

  api.route(
    {
      ...activityEndpoints.export,
      summary: 'The same view as CSV, streamed (the whole view: `limit` and `cursor` are ignored)',
      access: inSelectedOrganization('read__activity'),
      responses: { 200: { description: 'text/csv; charset=utf-8, as an attachment' } },
    },
    async (c, { organization, query }) =>
      c.body(activityCsv(db, await scopeOf(organization.organizationId, query)), 200, {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': 'attachment; filename="activity.csv"',
      }),
  )

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
