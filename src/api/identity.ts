import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { identityEndpoints } from '../../contract/endpoints/identity.ts'
import type { IdentityProviderInput, IdentitySettings } from '../../contract/identity.ts'
import { call } from '../lib/call.ts'

const identityKey = (organizationId: string) => ['organizations', organizationId, 'identity'] as const

/** The organization's own sign-in: its provider (never the secret), the redirect URI, its domains (ADMIN). */
export const identitySettingsQuery = (organizationId: string) =>
  queryOptions({
    queryKey: identityKey(organizationId),
    queryFn: () => call(identityEndpoints.settings, { params: { id: organizationId } }),
  })

/** A change whose answer is the settings as they now stand: they replace the cached ones. */
function useIdentityChange<Input>(
  organizationId: string,
  send: (input: Input) => Promise<IdentitySettings | undefined>,
) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: send,
    onSuccess: (settings) =>
      settings
        ? queryClient.setQueryData(identityKey(organizationId), settings)
        : queryClient.invalidateQueries({ queryKey: identityKey(organizationId) }),
  })
}

export const useSaveIdentityProvider = (organizationId: string) =>
  useIdentityChange(organizationId, (body: IdentityProviderInput) =>
    call(identityEndpoints.saveProvider, { params: { id: organizationId }, body }),
  )

export const useRemoveIdentityProvider = (organizationId: string) =>
  useIdentityChange(organizationId, async () => {
    await call(identityEndpoints.removeProvider, { params: { id: organizationId } })
    return undefined
  })

export const useAddIdentityDomain = (organizationId: string) =>
  useIdentityChange(organizationId, (domain: string) =>
    call(identityEndpoints.addDomain, { params: { id: organizationId }, body: { domain } }),
  )

export const useVerifyIdentityDomain = (organizationId: string) =>
  useIdentityChange(organizationId, (domain: string) =>
    call(identityEndpoints.verifyDomain, { params: { id: organizationId, domain } }),
  )

export const useRemoveIdentityDomain = (organizationId: string) =>
  useIdentityChange(organizationId, async (domain: string) => {
    await call(identityEndpoints.removeDomain, { params: { id: organizationId, domain } })
    return undefined
  })
