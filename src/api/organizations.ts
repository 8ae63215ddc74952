import { useLingui } from '@lingui/react/macro'
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { useRouter } from '@tanstack/react-router'
import { organizationEndpoints } from '../../contract/endpoints/organizations.ts'
import type { OrganizationCreate, OrganizationUpdate } from '../../contract/organizations.ts'
import { call } from '../lib/call.ts'
import { mirrored, mirrorStore } from '../offline/mirrored.ts'
import { useFailureToast } from '../ui/failure-toast.ts'
import { useRefetchingMutation } from './refetching-mutation.ts'

const organizationKeys = {
  all: ['organizations'] as const,
  one: (id: string) => ['organizations', id] as const,
  tags: (id: string, cursor: string | null) => ['organizations', id, 'tags', cursor] as const,
}

export const organizationsQuery = queryOptions({
  queryKey: organizationKeys.all,
  queryFn: () =>
    mirrored(
      async () => (await call(organizationEndpoints.list)).data,
      async (organizations) => (await mirrorStore()).mirrorOrganizations(organizations),
      async () => (await mirrorStore()).mirroredOrganizations(),
    ),
})

export const organizationQuery = (id: string) =>
  queryOptions({
    queryKey: organizationKeys.one(id),
    queryFn: () => call(organizationEndpoints.one, { params: { id } }),
  })

export const organizationTagsQuery = (id: string, cursor: string | null) =>
  queryOptions({
    queryKey: organizationKeys.tags(id, cursor),
    queryFn: () =>
      call(organizationEndpoints.tags, { params: { id }, query: { cursor: cursor ?? undefined } }),
  })

export function createOrganization(input: OrganizationCreate) {
  return call(organizationEndpoints.create, { body: input })
}

/** An ADMIN changes the organization's settings; its page and the list of organizations are fetched again. */
export const useUpdateOrganization = (id: string) =>
  useRefetchingMutation(organizationKeys.all, (body: OrganizationUpdate) =>
    call(organizationEndpoints.update, { params: { id }, body }),
  )

/**
 * Makes an organization the selected one, then refetches everything that depends on it (the profile's
 * permissions, every list, the cart, the routes' data). `select` answers false once the user has been told it
 * failed.
 */
export function useSelectOrganization() {
  const { t } = useLingui()
  const failed = useFailureToast()
  const queryClient = useQueryClient()
  const router = useRouter()
  const mutation = useMutation({
    mutationFn: (id: string) => call(organizationEndpoints.select, { body: { id } }),
    onSuccess: async () => {
      await queryClient.invalidateQueries()
      await router.invalidate()
    },
    onError: (error) => failed(t`The organization could not be selected.`, error),
  })
  const select = (id: string) =>
    mutation.mutateAsync(id).then(
      () => true,
      () => false,
    )
  return { select, isPending: mutation.isPending }
}
