import { queryOptions } from '@tanstack/react-query'
import { OrderPageSchema } from '../../../contract/commerce.ts'
import {
  DefaultOrganizationSchema,
  type Invitation,
  MemberListSchema,
  MemberSchema,
  type OrganizationCreate,
  OrganizationListSchema,
  OrganizationSchema,
} from '../../../contract/organizations.ts'
import { TagPageSchema } from '../../../contract/tags.ts'
import { api } from '../../lib/api.ts'
import { mirrored, mirrorStore } from '../../offline/mirrored.ts'

export const organizationKeys = {
  all: ['organizations'] as const,
  one: (id: string) => ['organizations', id] as const,
  members: (id: string) => ['organizations', id, 'members'] as const,
  tags: (id: string, cursor: string | null) => ['organizations', id, 'tags', cursor] as const,
  orders: (id: string) => ['organizations', id, 'orders'] as const,
}

export const organizationsQuery = queryOptions({
  queryKey: organizationKeys.all,
  queryFn: () =>
    mirrored(
      async () => (await api('/organizations', { schema: OrganizationListSchema })).data,
      async (organizations) => (await mirrorStore()).mirrorOrganizations(organizations),
      async () => (await mirrorStore()).mirroredOrganizations(),
    ),
})

export const organizationQuery = (id: string) =>
  queryOptions({
    queryKey: organizationKeys.one(id),
    queryFn: () => api(`/organizations/${id}`, { schema: OrganizationSchema }),
  })

export const organizationMembersQuery = (id: string) =>
  queryOptions({
    queryKey: organizationKeys.members(id),
    queryFn: async () => (await api(`/organizations/${id}/users`, { schema: MemberListSchema })).data,
  })

export const organizationTagsQuery = (id: string, cursor: string | null) =>
  queryOptions({
    queryKey: organizationKeys.tags(id, cursor),
    queryFn: () =>
      api(`/organizations/${id}/tags${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`, {
        schema: TagPageSchema,
      }),
  })

export function createOrganization(input: OrganizationCreate) {
  return api('/organizations', { method: 'POST', body: input, schema: OrganizationSchema })
}

export function inviteMember(organizationId: string, invitation: Invitation) {
  return api(`/organizations/${organizationId}/users`, {
    method: 'POST',
    body: invitation,
    schema: MemberSchema,
  })
}

export function selectOrganization(id: string) {
  return api('/organizations/default', { method: 'PATCH', body: { id }, schema: DefaultOrganizationSchema })
}

export const organizationOrdersQuery = (id: string) =>
  queryOptions({
    queryKey: organizationKeys.orders(id),
    queryFn: () => api(`/organizations/${id}/orders`, { schema: OrderPageSchema }),
  })
