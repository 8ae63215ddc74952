import { useLingui } from '@lingui/react/macro'
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { useRouter } from '@tanstack/react-router'
import { OrderPageSchema } from '../../contract/commerce.ts'
import {
  DefaultOrganizationSchema,
  type OrganizationCreate,
  OrganizationListSchema,
  OrganizationSchema,
} from '../../contract/organizations.ts'
import { TagPageSchema } from '../../contract/tags.ts'
import { api } from '../lib/api.ts'
import { mirrored, mirrorStore } from '../offline/mirrored.ts'
import { useFailureToast } from '../ui/failure-toast.ts'

export const organizationKeys = {
  all: ['organizations'] as const,
  one: (id: string) => ['organizations', id] as const,
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
    mutationFn: (id: string) =>
      api('/organizations/default', { method: 'PATCH', body: { id }, schema: DefaultOrganizationSchema }),
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

export const organizationOrdersQuery = (id: string) =>
  queryOptions({
    queryKey: organizationKeys.orders(id),
    queryFn: () => api(`/organizations/${id}/orders`, { schema: OrderPageSchema }),
  })
