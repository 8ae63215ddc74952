import { transferEndpoints } from '../../../contract/endpoints/transfers.ts'
import type { AppDeps } from '../../deps.ts'
import { inSelectedOrganization, type OrganizationScope } from '../../http/access.ts'
import type { ApiRouter } from '../../http/api-router.ts'
import { forbidden } from '../../http/errors.ts'
import { getMember } from '../members/service.ts'
import { listMemberTransfers } from '../transfers/list.ts'
import { listHoldings } from './holdings.ts'

const SOMEONE_ELSE = {
  403: { description: 'Another member’s page, for a role that does not read members (MEMBER, CONTACT)' },
  404: { description: 'The person is not a member of the selected organization' },
}

/**
 * A member's page: what they hold now and the transfers addressed to them. ADMIN and MANAGER (`read__member`)
 * read anyone's; every member reads their own. Someone who is not a member of the selected organization is a
 * 404 for all (asked first, so another organization's member is never told apart by a 403).
 */
export function memberPageRoutes(api: ApiRouter, deps: AppDeps): void {
  const { db } = deps.database
  const { publicUrl } = deps.config

  const readable = async (organization: OrganizationScope, callerId: string, memberId: string) => {
    await getMember(db, organization.organizationId, memberId)
    if (memberId !== callerId && !organization.permissions.includes('read__member')) throw forbidden()
  }

  api.route(
    {
      ...transferEndpoints.memberHoldings,
      summary:
        'A member and the keychains they hold now, by name, with their keys and the day each transfer brings it back (their own for every role; anyone’s with `read__member`)',
      access: inSelectedOrganization('read__transfer'),
      responses: { 200: { description: 'The member and a page of their keychains' }, ...SOMEONE_ELSE },
    },
    async (c, { organization, session, params, query }) => {
      await readable(organization, session.user.id, params.id)
      const scope = {
        organizationId: organization.organizationId,
        personId: params.id,
        now: deps.clock.now(),
      }
      return c.json(await listHoldings(db, scope, { ...query, person: params.id }), 200)
    },
  )

  api.route(
    {
      ...transferEndpoints.ofMember,
      summary:
        'The transfers addressed to a member, newest window first, paginated by cursor (their own for every role; anyone’s with `read__member`)',
      access: inSelectedOrganization('read__transfer'),
      responses: { 200: { description: 'A page of transfers' }, ...SOMEONE_ELSE },
    },
    async (c, { organization, session, params, query }) => {
      await readable(organization, session.user.id, params.id)
      return c.json(
        await listMemberTransfers(db, {
          organizationId: organization.organizationId,
          memberId: params.id,
          caller: { userId: session.user.id, role: organization.role },
          query,
          now: deps.clock.now(),
          publicUrl,
        }),
        200,
      )
    },
  )
}
