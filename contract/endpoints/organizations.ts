import { IdParamsSchema } from '../common.ts'
import {
  DefaultOrganizationSchema,
  DefaultOrganizationUpdateSchema,
  InvitationSchema,
  MemberListSchema,
  MemberSchema,
  OrganizationCreateSchema,
  OrganizationListSchema,
  OrganizationSchema,
  OrganizationUpdateSchema,
} from '../organizations.ts'
import { TagListQuerySchema, TagPageSchema } from '../tags.ts'
import { endpoint } from './endpoint.ts'

/** The caller's organizations, the selected one, and an organization's tags and members. */
export const organizationEndpoints = {
  list: endpoint({ method: 'get', path: '/organizations', response: OrganizationListSchema }),
  create: endpoint({
    method: 'post',
    path: '/organizations',
    body: OrganizationCreateSchema,
    response: OrganizationSchema,
  }),
  selected: endpoint({ method: 'get', path: '/organizations/default', response: DefaultOrganizationSchema }),
  select: endpoint({
    method: 'patch',
    path: '/organizations/default',
    body: DefaultOrganizationUpdateSchema,
    response: DefaultOrganizationSchema,
  }),
  one: endpoint({
    method: 'get',
    path: '/organizations/:id',
    params: IdParamsSchema,
    response: OrganizationSchema,
  }),
  update: endpoint({
    method: 'patch',
    path: '/organizations/:id',
    params: IdParamsSchema,
    body: OrganizationUpdateSchema,
    response: OrganizationSchema,
  }),
  tags: endpoint({
    method: 'get',
    path: '/organizations/:id/tags',
    params: IdParamsSchema,
    query: TagListQuerySchema,
    response: TagPageSchema,
  }),
  members: endpoint({
    method: 'get',
    path: '/organizations/:id/users',
    params: IdParamsSchema,
    response: MemberListSchema,
  }),
  invite: endpoint({
    method: 'post',
    path: '/organizations/:id/users',
    params: IdParamsSchema,
    body: InvitationSchema,
    response: MemberSchema,
  }),
}
