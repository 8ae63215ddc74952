import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { apiTokenEndpoints } from '../../contract/endpoints/api-tokens.ts'
import type { Role } from '../../contract/permissions.ts'
import { call } from '../lib/call.ts'

const personalKey = ['api-tokens'] as const
const organizationKey = (organizationId: string) => ['organizations', organizationId, 'api-tokens'] as const

/** My personal API tokens (never their secret: it is shown once, when made). */
export function usePersonalApiTokens() {
  return useQuery({ queryKey: personalKey, queryFn: () => call(apiTokenEndpoints.listPersonal) })
}

export function useCreatePersonalApiToken() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: { name: string; expiresAt: string | null }) =>
      call(apiTokenEndpoints.createPersonal, { body }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: personalKey }),
  })
}

export function useRevokePersonalApiToken() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => call(apiTokenEndpoints.revokePersonal, { params: { id } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: personalKey }),
  })
}

/** An organization's API tokens (its admins'). */
export function useOrganizationApiTokens(organizationId: string) {
  return useQuery({
    queryKey: organizationKey(organizationId),
    queryFn: () => call(apiTokenEndpoints.listOrganization, { params: { id: organizationId } }),
  })
}

export function useCreateOrganizationApiToken(organizationId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: { name: string; role: Role; expiresAt: string | null }) =>
      call(apiTokenEndpoints.createOrganization, { params: { id: organizationId }, body }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: organizationKey(organizationId) }),
  })
}

export function useRevokeOrganizationApiToken(organizationId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (tokenId: string) =>
      call(apiTokenEndpoints.revokeOrganization, { params: { id: organizationId, tokenId } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: organizationKey(organizationId) }),
  })
}
