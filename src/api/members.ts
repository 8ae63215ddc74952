import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { memberEndpoints } from '../../contract/endpoints/members.ts'
import { organizationEndpoints } from '../../contract/endpoints/organizations.ts'
import type { Invitation, MemberUpdate } from '../../contract/organizations.ts'
import { useAbility } from '../lib/ability.tsx'
import { call } from '../lib/call.ts'
import { useRefetchingMutation } from './refetching-mutation.ts'

// An organization's members, whichever screen shows them (the members list of the selected organization, an
// organization's page): one cache entry per organization, so an invitation or a change shows everywhere.
export const memberKeys = {
  all: ['members'] as const,
  list: (organizationId: string) => ['members', organizationId] as const,
  one: (organizationId: string, id: string) => ['members', organizationId, id] as const,
}

export const membersQuery = (organizationId: string) =>
  queryOptions({
    queryKey: memberKeys.list(organizationId),
    queryFn: async () => (await call(organizationEndpoints.members, { params: { id: organizationId } })).data,
  })

export const memberQuery = (organizationId: string, id: string) =>
  queryOptions({
    queryKey: memberKeys.one(organizationId, id),
    queryFn: () => call(memberEndpoints.one, { params: { id } }),
  })

/** Members of the selected organization for pickers (custodians); empty for roles that may not read members. */
export function useMembersIfAllowed(organizationId: string) {
  const canReadMembers = useAbility().can('read', 'member')
  return useQuery({ ...membersQuery(organizationId), enabled: canReadMembers }).data ?? []
}

/** Changes a member of the selected organization; the member's page and the list show the server's answer. */
export function useUpdateMember(organizationId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ id, update }: { id: string; update: MemberUpdate }) =>
      call(memberEndpoints.update, { params: { id }, body: update }),
    onSuccess: (updated) => {
      queryClient.setQueryData(memberKeys.one(organizationId, updated.id), updated)
      return queryClient.invalidateQueries({ queryKey: memberKeys.list(organizationId), exact: true })
    },
  })
}

/** Invites someone by e-mail with a role; the organization's list shows them as invited. */
export const useInviteMember = (organizationId: string) =>
  useRefetchingMutation(memberKeys.list(organizationId), (invitation: Invitation) =>
    call(organizationEndpoints.invite, { params: { id: organizationId }, body: invitation }),
  )
