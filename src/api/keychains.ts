import {
  infiniteQueryOptions,
  partialMatchKey,
  queryOptions,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query'
import { keychainEndpoints } from '../../contract/endpoints/keychains.ts'
import { organizationEndpoints } from '../../contract/endpoints/organizations.ts'
import type {
  KeyCreate,
  KeychainCreate,
  KeychainFilter,
  KeychainSort,
  KeychainUpdate,
} from '../../contract/keychains.ts'
import { call } from '../lib/call.ts'
import { mirrored, mirrorStore } from '../offline/mirrored.ts'
import { keychainKeys } from './keychain-keys.ts'
import { useRefetchingMutation } from './refetching-mutation.ts'

/** The offline answer: the mirrored rows that match, in natural name order (statuses as last fetched). */
async function mirroredPage(
  organizationId: string,
  q: string,
  custodianId: string,
  status: KeychainFilter | '',
) {
  const needle = q.toLowerCase()
  const wanted = status ? OFFLINE_STATUSES[status] : null
  const rows = (await (await mirrorStore()).mirroredKeychainSummaries(organizationId)).filter(
    (row) =>
      (row.name.toLowerCase().includes(needle) ||
        row.tagCodes.some((code) => code.toLowerCase().includes(needle))) &&
      (!custodianId || row.custodian?.id === custodianId) &&
      (wanted === null || (status === 'unheld' ? row.custodian === null : wanted.includes(row.status ?? ''))),
  )
  rows.sort((a, b) => a.name.localeCompare(b.name, undefined, { numeric: true, sensitivity: 'base' }))
  return { data: rows, nextCursor: null, tagMatch: null }
}

/** Which statuses a filter keeps, offline (the mirror has no deleted keychains). */
const OFFLINE_STATUSES: Record<KeychainFilter, string[]> = {
  free: ['FREE'],
  held: ['HELD'],
  scheduled: ['SCHEDULED'],
  out: ['OUT'],
  overdue: ['OVERDUE'],
  unheld: [],
  deleted: ['DELETED'],
}

/**
 * One page after another in `sort` order (natural order of names by default); `q` matches part of the name, a
 * tag code or the holder, `custodianId` who holds it, `status` one status (or `deleted`), `placeId` a home in that
 * place or under it.
 */
export const keychainListQuery = (
  organizationId: string,
  q: string,
  custodianId = '',
  status: KeychainFilter | '' = '',
  sort: KeychainSort = 'name',
  placeId = '',
) =>
  infiniteQueryOptions({
    queryKey: keychainKeys.list(organizationId, q, custodianId, status, sort, placeId),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => {
      const query = {
        q,
        custodianId,
        cursor: pageParam ?? undefined,
        ...(status ? { status } : {}),
        ...(sort !== 'name' ? { sort } : {}),
        ...(placeId ? { placeId } : {}),
      }
      return mirrored(
        () => call(keychainEndpoints.list, { query }),
        async (page) => {
          // The mirror holds the keychains that are there; deleted ones are not.
          if (status !== 'deleted')
            await (await mirrorStore()).mirrorKeychainSummaries(organizationId, page.data)
        },
        // The mirror knows no tree of places: a list by place is the server's only.
        async () => (pageParam || placeId ? undefined : mirroredPage(organizationId, q, custodianId, status)),
      )
    },
    getNextPageParam: (page) => page.nextCursor,
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

/**
 * Deletes a keychain; resolves once the organization's keychain lists are fetched again. Not the keychain's own
 * page and custody log: they would answer 404 while its screen goes away (the screen drops them as it leaves).
 */
export const useDeleteKeychain = (organizationId: string) => {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => call(keychainEndpoints.remove, { params: { id } }),
    onSuccess: (_answer, id) =>
      queryClient.invalidateQueries({
        queryKey: keychainKeys.all(organizationId),
        predicate: (query) => !partialMatchKey(query.queryKey, keychainKeys.one(organizationId, id)),
      }),
  })
}

/** Brings a deleted keychain back (the undo of a deletion, or from the deleted list). */
export const useRestoreKeychain = (organizationId: string) =>
  useKeychainMutation(organizationId, (id: string) => call(keychainEndpoints.restore, { params: { id } }))

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
