import { IdParamsSchema } from '../../../contract/common.ts'
import {
  DefaultOrganizationSchema,
  DefaultOrganizationUpdateSchema,
  InvitationSchema,
  MemberListSchema,
  MemberSchema,
  OrganizationCreateSchema,
  OrganizationListSchema,
  OrganizationSchema,
} from '../../../contract/organizations.ts'
import { TagListQuerySchema, TagPageSchema } from '../../../contract/tags.ts'
import type { AppDeps } from '../../deps.ts'
import { inPathOrganization } from '../../http/access.ts'
import type { ApiRouter } from '../../http/api-router.ts'
import { inviteMember } from '../members/invitations.ts'
import { listMembers } from '../members/service.ts'
import { listTags } from '../tags/list.ts'
import { createOrganization, getOrganization, listOrganizations, selectOrganization } from './service.ts'

export function organizationRoutes(api: ApiRouter, deps: AppDeps): void {
  const { db } = deps.database

  api.route(
    {
      method: 'get',
      path: '/organizations',
      summary: "The caller's organizations (not those where their membership is disabled), with their role",
      access: 'signedIn',
      responses: { 200: { description: 'The organizations', schema: OrganizationListSchema } },
    },
    async (c, { session }) => c.json({ data: await listOrganizations(db, session.user.id) }, 200),
  )

  api.route(
    {
      method: 'post',
      path: '/organizations',
      summary: 'Create an organization: the caller becomes its ADMIN (and selects it if none was selected)',
      access: 'signedIn',
      body: OrganizationCreateSchema,
      responses: { 201: { description: 'Created', schema: OrganizationSchema } },
    },
    async (c, { session, body }) => c.json(await createOrganization(deps, session.user, body), 201),
  )

  // Before /organizations/:id, which would otherwise take "default" for an id.
  api.route(
    {
      method: 'get',
      path: '/organizations/default',
      summary: "The caller's selected organization ({id: null} when none)",
      access: 'signedIn',
      responses: { 200: { description: 'The selected organization', schema: DefaultOrganizationSchema } },
    },
    async (c, { session }) => c.json({ id: session.user.selectedOrganizationId }, 200),
  )

  api.route(
    {
      method: 'patch',
      path: '/organizations/default',
      summary: 'Select an organization the caller belongs to',
      access: 'signedIn',
      body: DefaultOrganizationUpdateSchema,
      responses: {
        200: { description: 'Selected', schema: DefaultOrganizationSchema },
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
      method: 'get',
      path: '/organizations/:id',
      summary: 'One organization of the caller',
      access: inPathOrganization('read__organization'),
      params: IdParamsSchema,
      responses: { 200: { description: 'The organization', schema: OrganizationSchema } },
    },
    async (c, { organization }) =>
      c.json(await getOrganization(db, organization.organizationId, organization.role), 200),
  )

  api.route(
    {
      method: 'get',
      path: '/organizations/:id/tags',
      summary: "The organization's tags by code (paginated; `unused=true` for tags not on a key yet)",
      access: inPathOrganization('read__tag'),
      params: IdParamsSchema,
      query: TagListQuerySchema,
      responses: { 200: { description: 'A page of tags', schema: TagPageSchema } },
    },
    async (c, { organization, query }) =>
      c.json(await listTags(deps, organization.organizationId, query), 200),
  )

  api.route(
    {
      method: 'get',
      path: '/organizations/:id/users',
      summary: "The organization's members",
      access: inPathOrganization('read__member'),
      params: IdParamsSchema,
      responses: { 200: { description: 'The members', schema: MemberListSchema } },
    },
    async (c, { organization }) => c.json({ data: await listMembers(db, organization.organizationId) }, 200),
  )

  api.route(
    {
      method: 'post',
      path: '/organizations/:id/users',
      summary: 'Invite someone by e-mail with a role; they get a mail in their language',
      access: inPathOrganization('create__member'),
      params: IdParamsSchema,
      body: InvitationSchema,
      responses: {
        201: { description: 'Invited (INVITED until their next sign-in)', schema: MemberSchema },
        409: { description: 'Already a member' },
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
