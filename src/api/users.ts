import { queryOptions, useQuery } from '@tanstack/react-query'
import { MemberListSchema, MemberSchema, type MemberUpdate } from '../../contract/organizations.ts'
import { useAbility } from '../lib/ability.tsx'
import { api } from '../lib/api.ts'

/** Members of the selected organization; keyed by it so switching never shows another organization's people. */
export const membersQuery = (organizationId: string) =>
  queryOptions({
    queryKey: ['members', organizationId] as const,
    queryFn: async () => (await api('/users', { schema: MemberListSchema })).data,
  })

export const memberQuery = (organizationId: string, id: string) =>
  queryOptions({
    queryKey: ['members', organizationId, id] as const,
    queryFn: () => api(`/users/${id}`, { schema: MemberSchema }),
  })

export function updateMember(id: string, update: MemberUpdate) {
  return api(`/users/${id}`, { method: 'PATCH', body: update, schema: MemberSchema })
}

/** Members of the selected organization for pickers (custodians); empty for roles that may not read members. */
export function useMembersIfAllowed(organizationId: string) {
  const canReadMembers = useAbility().can('read', 'member')
  return useQuery({ ...membersQuery(organizationId), enabled: canReadMembers }).data ?? []
}
