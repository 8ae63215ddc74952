import { memberEndpoints } from '../../../contract/endpoints/members.ts'
import type { AppDeps } from '../../deps.ts'
import { inSelectedOrganization } from '../../http/access.ts'
import type { ApiRouter } from '../../http/api-router.ts'
import { getMember, listMembers } from './service.ts'
import { updateMember } from './update.ts'

/** `/users`: the members of the selected organization. */
export function memberRoutes(api: ApiRouter, deps: AppDeps): void {
  const { db } = deps.database

  api.route(
    {
      ...memberEndpoints.list,
      summary: 'Members of the selected organization',
      access: inSelectedOrganization('read__member'),
      responses: { 200: { description: 'The members' } },
    },
    async (c, { organization }) => c.json({ data: await listMembers(db, organization.organizationId) }, 200),
  )

  api.route(
    {
      ...memberEndpoints.one,
      summary: 'One member of the selected organization',
      access: inSelectedOrganization('read__member'),
      responses: { 200: { description: 'The member' } },
    },
    async (c, { organization, params }) =>
      c.json(await getMember(db, organization.organizationId, params.id), 200),
  )

  api.route(
    {
      ...memberEndpoints.update,
      summary:
        'Edit a member: names and e-mail while their own invitee, role and status (DISABLED revokes an invitation; the last admin stays)',
      access: inSelectedOrganization('update__member'),
      responses: {
        200: { description: 'The updated member' },
        409: {
          description:
            "`conflict`: the last active admin, or an e-mail that is no longer the organization's to change; `member_names_locked`: names that are no longer its to change",
        },
      },
    },
    async (c, { session, organization, params, body }) =>
      c.json(
        await updateMember(deps, {
          organizationId: organization.organizationId,
          actorId: session.user.id,
          userId: params.id,
          update: body,
        }),
        200,
      ),
  )
}
