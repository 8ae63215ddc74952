import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query'
import {
  CustodyLogSchema,
  type KeyCreate,
  type KeychainCreate,
  KeychainPageSchema,
  KeychainSchema,
  type KeychainUpdate,
  KeySchema,
} from '../../contract/keychains.ts'
import { TagPageSchema } from '../../contract/tags.ts'
import { api } from '../lib/api.ts'
import { mirrored, mirrorStore } from '../offline/mirrored.ts'
import { useRefetchingMutation } from './refetching-mutation.ts'

export const keychainKeys = {
  all: (organizationId: string) => ['keychains', organizationId] as const,
  list: (organizationId: string, q: string, custodianId: string) =>
    ['keychains', organizationId, 'list', q, custodianId] as const,
  one: (organizationId: string, id: string) => ['keychains', organizationId, id] as const,
  custody: (organizationId: string, id: string) => ['keychains', organizationId, id, 'custody'] as const,
  unusedTags: (organizationId: string, q: string) => ['keychains', organizationId, 'unused-tags', q] as const,
}

/** One page after another, ordered by name; `q` matches part of the name, `custodianId` who holds it. */
export const keychainListQuery = (organizationId: string, q: string, custodianId = '') =>
  infiniteQueryOptions({
    queryKey: keychainKeys.list(organizationId, q, custodianId),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => {
      const search = new URLSearchParams()
      if (q) search.set('q', q)
      if (custodianId) search.set('custodianId', custodianId)
      if (pageParam) search.set('cursor', pageParam)
      const query = search.toString()
      return mirrored(
        () => api(`/keychains${query ? `?${query}` : ''}`, { schema: KeychainPageSchema }),
        async (page) => (await mirrorStore()).mirrorKeychainSummaries(organizationId, page.data),
        async () => {
          if (pageParam) return undefined
          const needle = q.toLowerCase()
          const rows = (await (await mirrorStore()).mirroredKeychainSummaries(organizationId)).filter(
            (row) =>
              row.name.toLowerCase().includes(needle) && (!custodianId || row.custodian?.id === custodianId),
          )
          return { data: rows, nextCursor: null }
        },
      )
    },
    getNextPageParam: (page) => page.nextCursor,
  })

export const keychainQuery = (organizationId: string, id: string) =>
  queryOptions({
    queryKey: keychainKeys.one(organizationId, id),
    queryFn: () =>
      mirrored(
        () => api(`/keychains/${id}`, { schema: KeychainSchema }),
        (keychain) => mirrorStore().then((store) => store.mirrorKeychain(keychain)),
        async () => (await mirrorStore()).mirroredKeychain(id),
      ),
  })

export const custodyLogQuery = (organizationId: string, id: string) =>
  queryOptions({
    queryKey: keychainKeys.custody(organizationId, id),
    queryFn: async () => (await api(`/keychains/${id}/custody-log`, { schema: CustodyLogSchema })).data,
  })

/** Tags of the selected organization not on a key yet, matching `q` (part of the code or name): the choices for a TAG key. */
export const unusedTagsQuery = (organizationId: string, q: string) =>
  queryOptions({
    queryKey: keychainKeys.unusedTags(organizationId, q),
    queryFn: async () => {
      const search = new URLSearchParams({ unused: 'true', limit: '50' })
      if (q) search.set('q', q)
      return (await api(`/organizations/${organizationId}/tags?${search}`, { schema: TagPageSchema })).data
    },
  })

/** A change to a keychain or its keys; resolves once the organization's keychain lists and pages are fetched again. */
const useKeychainMutation = <TInput, TResult>(
  organizationId: string,
  send: (input: TInput) => Promise<TResult>,
) => useRefetchingMutation(keychainKeys.all(organizationId), send)

export const useCreateKeychain = (organizationId: string) =>
  useKeychainMutation(organizationId, (input: KeychainCreate) =>
    api('/keychains', { method: 'POST', body: input, schema: KeychainSchema }),
  )

export const useUpdateKeychain = (organizationId: string) =>
  useKeychainMutation(organizationId, ({ id, update }: { id: string; update: KeychainUpdate }) =>
    api(`/keychains/${id}`, { method: 'PATCH', body: update, schema: KeychainSchema }),
  )

export const useDeleteKeychain = (organizationId: string) =>
  useKeychainMutation(organizationId, (id: string) => api(`/keychains/${id}`, { method: 'DELETE' }))

export const useAddKey = (organizationId: string, keychainId: string) =>
  useKeychainMutation(organizationId, (input: KeyCreate) =>
    api(`/keychains/${keychainId}/keys`, { method: 'POST', body: input, schema: KeySchema }),
  )

export const useRenameKey = (organizationId: string, keychainId: string) =>
  useKeychainMutation(organizationId, ({ keyId, name }: { keyId: string; name: string }) =>
    api(`/keychains/${keychainId}/keys/${keyId}`, { method: 'PATCH', body: { name }, schema: KeySchema }),
  )

export const useRemoveKey = (organizationId: string, keychainId: string) =>
  useKeychainMutation(organizationId, (keyId: string) =>
    api(`/keychains/${keychainId}/keys/${keyId}`, { method: 'DELETE' }),
  )
