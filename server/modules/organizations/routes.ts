import { organizationEndpoints } from '../../../contract/endpoints/organizations.ts'
import type { AppDeps } from '../../deps.ts'
import { inPathOrganization } from '../../http/access.ts'
import type { ApiRouter } from '../../http/api-router.ts'
import { inviteMember } from '../members/invitations.ts'
import { listMembers } from '../members/service.ts'
import { listTags } from '../tags/list.ts'
import {
  createOrganization,
  getOrganization,
  listOrganizations,
  selectOrganization,
  updateOrganization,
} from './service.ts'

export function organizationRoutes(api: ApiRouter, deps: AppDeps): void {
  const { db } = deps.database

  api.route(
    {
      ...organizationEndpoints.list,
      summary: "The caller's organizations (not those where their membership is disabled), with their role",
      access: 'signedIn',
      responses: { 200: { description: 'The organizations' } },
    },
    async (c, { session }) => c.json({ data: await listOrganizations(db, session.user.id) }, 200),
  )

  api.route(
    {
      ...organizationEndpoints.create,
      summary: 'Create an organization: the caller becomes its ADMIN (and selects it if none was selected)',
      access: 'signedIn',
      responses: { 201: { description: 'Created' } },
    },
    async (c, { session, body }) => c.json(await createOrganization(deps, session.user, body), 201),
  )

  // Before /organizations/:id, which would otherwise take "default" for an id.
  api.route(
    {
      ...organizationEndpoints.selected,
      summary: "The caller's selected organization ({id: null} when none)",
      access: 'signedIn',
      responses: { 200: { description: 'The selected organization' } },
    },
    async (c, { session }) => c.json({ id: session.user.selectedOrganizationId }, 200),
  )

  api.route(
    {
      ...organizationEndpoints.select,
      summary: 'Select an organization the caller belongs to',
      access: 'signedIn',
      responses: {
        200: { description: 'Selected' },
        404: { description: 'Not a member of that organization' },
      },
    },
    async (c, { session, body }) => {
      await selectOrganization(db, session.user.id, body.id)
      return c.json({ id: body.id }, 200)
    },
  )

  api.route(
    {
      ...organizationEndpoints.one,
      summary: 'One organization of the caller',
      access: inPathOrganization('read__organization'),
      responses: { 200: { description: 'The organization' } },
    },
    async (c, { organization }) =>
      c.json(await getOrganization(db, organization.organizationId, organization.role), 200),
  )

  api.route(
    {
      ...organizationEndpoints.update,
      summary:
        "Change the organization's settings (send only those that change): `stocktakeRole`, the least role " +
        'that may scan into its stocktakes (ADMIN, MANAGER or MEMBER, never CONTACT); `handoverReceivers`, who ' +
        'may be handed a keychain from phone to phone (MEMBERS, or MEMBERS_AND_CONTACTS: also a contact within ' +
        'the window of a transfer of that keychain to them)',
      access: inPathOrganization('update__organization'),
      responses: {
        200: { description: 'The organization as it now is' },
        400: {
          description:
            '`validation_failed`: an unknown setting, a stocktake role that is CONTACT, an unknown handover receivers value',
        },
      },
    },
    async (c, { organization, body }) =>
      c.json(await updateOrganization(db, organization.organizationId, organization.role, body), 200),
  )

  api.route(
    {
      ...organizationEndpoints.tags,
      summary: "The organization's tags by code (paginated; `unused=true` for tags not on a key yet)",
      access: inPathOrganization('read__tag'),
      responses: { 200: { description: 'A page of tags' } },
    },
    async (c, { organization, query }) =>
      c.json(await listTags(deps, organization.organizationId, query), 200),
  )

  api.route(
    {
      ...organizationEndpoints.members,
      summary: "The organization's members",
      access: inPathOrganization('read__member'),
      responses: { 200: { description: 'The members' } },
    },
    async (c, { organization }) => c.json({ data: await listMembers(db, organization.organizationId) }, 200),
  )

  api.route(
    {
      ...organizationEndpoints.invite,
      summary: 'Invite someone by e-mail with a role; they get a mail in their language',
      access: inPathOrganization('create__member'),
      responses: {
        201: { description: 'Invited (INVITED until their next sign-in)' },
        409: { description: '`conflict`: already a member' },
      },
    },
    async (c, { organization, session, body }) =>
      c.json(
        await inviteMember(deps, {
          organizationId: organization.organizationId,
          inviter: session.user,
          invitation: body,
        }),
        201,
      ),
  )
}
