import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { apiTokenEndpoints } from '../../contract/endpoints/api-tokens.ts'
import type { Role } from '../../contract/permissions.ts'
import { call } from '../lib/call.ts'

const apiTokenKeys = {
  personal: ['api-tokens'] as const,
  organization: (organizationId: string) => ['organizations', organizationId, 'api-tokens'] as const,
}

/** `kind` (an organization's token): for a program (`organization`) or the identity provider (`scim`). */
type NewToken = { name: string; role: Role; expiresAt: string | null; kind?: 'organization' | 'scim' }

/**
 * API tokens (never their secret: it is shown once, when made), with making and revoking one: my personal ones
 * (`organizationId` null: a program acts as me, with my role in each organization), or an organization's (its
 * admins': a program acts in it only, with the role chosen when the token is made).
 */
export function useApiTokens(organizationId: string | null) {
  const queryClient = useQueryClient()
  const queryKey = organizationId ? apiTokenKeys.organization(organizationId) : apiTokenKeys.personal
  const refetch = () => queryClient.invalidateQueries({ queryKey })
  const tokens = useQuery({
    queryKey,
    queryFn: () =>
      organizationId
        ? call(apiTokenEndpoints.listOrganization, { params: { id: organizationId } })
        : call(apiTokenEndpoints.listPersonal),
  })
  const create = useMutation({
    mutationFn: ({ role, kind, ...body }: NewToken) =>
      organizationId
        ? call(apiTokenEndpoints.createOrganization, {
            params: { id: organizationId },
            body: { ...body, role, kind },
          })
        : call(apiTokenEndpoints.createPersonal, { body }),
    onSettled: refetch,
  })
  const revoke = useMutation({
    mutationFn: (tokenId: string) =>
      organizationId
        ? call(apiTokenEndpoints.revokeOrganization, { params: { id: organizationId, tokenId } })
        : call(apiTokenEndpoints.revokePersonal, { params: { id: tokenId } }),
    onSettled: refetch,
  })
  return { tokens, create, revoke }
}
