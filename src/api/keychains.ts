import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query'
import { keychainEndpoints } from '../../contract/endpoints/keychains.ts'
import { organizationEndpoints } from '../../contract/endpoints/organizations.ts'
import type { KeyCreate, KeychainCreate, KeychainUpdate } from '../../contract/keychains.ts'
import { call } from '../lib/call.ts'
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
      return mirrored(
        () => call(keychainEndpoints.list, { query: { q, custodianId, cursor: pageParam ?? undefined } }),
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
        () => call(keychainEndpoints.one, { params: { id } }),
        (keychain) => mirrorStore().then((store) => store.mirrorKeychain(keychain)),
        async () => (await mirrorStore()).mirroredKeychain(id),
      ),
  })

export const custodyLogQuery = (organizationId: string, id: string) =>
  queryOptions({
    queryKey: keychainKeys.custody(organizationId, id),
    queryFn: async () => (await call(keychainEndpoints.custodyLog, { params: { id } })).data,
  })

/** Tags of the selected organization not on a key yet, matching `q` (part of the code or name): the choices for a TAG key. */
export const unusedTagsQuery = (organizationId: string, q: string) =>
  queryOptions({
    queryKey: keychainKeys.unusedTags(organizationId, q),
    queryFn: async () =>
      (
        await call(organizationEndpoints.tags, {
          params: { id: organizationId },
          query: { unused: 'true', limit: '50', q },
        })
      ).data,
  })

/** A change to a keychain or its keys; resolves once the organization's keychain lists and pages are fetched again. */
const useKeychainMutation = <TInput, TResult>(
  organizationId: string,
  send: (input: TInput) => Promise<TResult>,
) => useRefetchingMutation(keychainKeys.all(organizationId), send)

export const useCreateKeychain = (organizationId: string) =>
  useKeychainMutation(organizationId, (input: KeychainCreate) =>
    call(keychainEndpoints.create, { body: input }),
  )

export const useUpdateKeychain = (organizationId: string) =>
  useKeychainMutation(organizationId, ({ id, update }: { id: string; update: KeychainUpdate }) =>
    call(keychainEndpoints.update, { params: { id }, body: update }),
  )

export const useDeleteKeychain = (organizationId: string) =>
  useKeychainMutation(organizationId, (id: string) => call(keychainEndpoints.remove, { params: { id } }))

export const useAddKey = (organizationId: string, keychainId: string) =>
  useKeychainMutation(organizationId, (input: KeyCreate) =>
    call(keychainEndpoints.addKey, { params: { id: keychainId }, body: input }),
  )

export const useRenameKey = (organizationId: string, keychainId: string) =>
  useKeychainMutation(organizationId, ({ keyId, name }: { keyId: string; name: string }) =>
    call(keychainEndpoints.renameKey, { params: { id: keychainId, keyId }, body: { name } }),
  )

export const useRemoveKey = (organizationId: string, keychainId: string) =>
  useKeychainMutation(organizationId, (keyId: string) =>
    call(keychainEndpoints.removeKey, { params: { id: keychainId, keyId } }),
  )
