import { foundReportEndpoints } from '../../../contract/endpoints/found-reports.ts'
import type { AppDeps } from '../../deps.ts'
import { inSelectedOrganization } from '../../http/access.ts'
import type { ApiRouter } from '../../http/api-router.ts'
import { changeFoundReportStatus, replyToFinder } from './actions.ts'
import { getFoundReport, listFoundReports } from './service.ts'

/** `/found-reports`: what finders wrote to the selected organization, its status, the replies sent. */
export function foundReportRoutes(api: ApiRouter, deps: AppDeps): void {
  const { db } = deps.database

  api.route(
    {
      ...foundReportEndpoints.list,
      summary:
        "Found-key reports of the selected organization, newest first (by `status`); finders' addresses masked",
      access: inSelectedOrganization('read__found_report'),
      responses: { 200: { description: 'A page of reports' } },
    },
    async (c, { organization, query }) =>
      c.json(await listFoundReports(db, organization.organizationId, query), 200),
  )

  api.route(
    {
      ...foundReportEndpoints.one,
      summary: 'One found-key report with its replies; the finder’s e-mail address stays on the server',
      access: inSelectedOrganization('read__found_report'),
      responses: { 200: { description: 'The report' } },
    },
    async (c, { organization, params }) =>
      c.json(await getFoundReport(db, organization.organizationId, params.id), 200),
  )

  api.route(
    {
      ...foundReportEndpoints.changeStatus,
      summary: 'Set a found-key report’s status (NEW, CONTACTED, RESOLVED); recorded in the ledger',
      access: inSelectedOrganization('update__found_report'),
      responses: { 200: { description: 'The report' } },
    },
    async (c, { session, organization, params, body }) =>
      c.json(
        await changeFoundReportStatus(deps, {
          organizationId: organization.organizationId,
          actorId: session.user.id,
          id: params.id,
          status: body.status,
        }),
        200,
      ),
  )

  api.route(
    {
      ...foundReportEndpoints.reply,
      summary:
        'Reply to the finder: mailed by the server to the address they left, in their language (a NEW report becomes CONTACTED)',
      access: inSelectedOrganization('update__found_report'),
      responses: {
        201: { description: 'The report with the reply' },
        409: {
          description:
            'The finder left no e-mail address (`finder_unreachable`), or the report’s replies are used up (`replies_exhausted`)',
        },
        429: { description: 'Too many replies from the organization this hour' },
      },
    },
    async (c, { session, organization, params, body }) =>
      c.json(
        await replyToFinder(deps, {
          organizationId: organization.organizationId,
          actorId: session.user.id,
          id: params.id,
          message: body.message,
        }),
        201,
      ),
  )
}
