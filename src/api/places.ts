import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { placeEndpoints } from '../../contract/endpoints/places.ts'
import type { HookLabelPrint, HookRange, PlaceCreate, PlaceUpdate } from '../../contract/places.ts'
import { call } from '../lib/call.ts'
import { keychainKeys } from './keychain-keys.ts'
import { downloadPdf } from './labels.ts'

const placeKeys = {
  all: (organizationId: string) => ['places', organizationId] as const,
  tree: (organizationId: string) => ['places', organizationId, 'tree'] as const,
  one: (organizationId: string, id: string) => ['places', organizationId, 'one', id] as const,
}

/**
 * Where a keychain is lives under the keychain's own key: a change of holder or a return (which refetch the
 * keychain) refetch it too.
 */
const locationKey = (organizationId: string, keychainId: string) =>
  [...keychainKeys.one(organizationId, keychainId), 'location'] as const

/** The selected organization's places, flat, parents before children (the tree in reading order). */
export const placeTreeQuery = (organizationId: string) =>
  queryOptions({
    queryKey: placeKeys.tree(organizationId),
    queryFn: async () => (await call(placeEndpoints.tree)).data,
  })

/** A place, the path to it from its site, and its hooks in order (also read for a stocktake's boards). */
export const fetchPlace = (id: string) => call(placeEndpoints.one, { params: { id } })

export const placeQuery = (organizationId: string, id: string) =>
  queryOptions({
    queryKey: placeKeys.one(organizationId, id),
    queryFn: () => fetchPlace(id),
  })

/** Where a keychain is: held, on its home hook, misplaced, or nowhere known. */
export const keychainLocationQuery = (organizationId: string, keychainId: string) =>
  queryOptions({
    queryKey: locationKey(organizationId, keychainId),
    queryFn: () => call(placeEndpoints.location, { params: { id: keychainId } }),
  })

/** A change to the places or their hooks: the tree, every place's page and the keychains' locations are read again. */
function usePlaceChange<Input, Output>(organizationId: string, send: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: send,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: placeKeys.all(organizationId) }),
        queryClient.invalidateQueries({
          queryKey: keychainKeys.all(organizationId),
          predicate: (query) => query.queryKey.at(-1) === 'location',
        }),
      ]),
  })
}

export const useCreatePlace = (organizationId: string) =>
  usePlaceChange(organizationId, (body: PlaceCreate) => call(placeEndpoints.create, { body }))

/** Renames, moves (`parentId`) or sets the recurring stocktake of a place. */
export const useUpdatePlace = (organizationId: string) =>
  usePlaceChange(organizationId, ({ id, ...body }: PlaceUpdate & { id: string }) =>
    call(placeEndpoints.update, { params: { id }, body }),
  )

/**
 * Deletes a place (409 `place_in_use` while places are under it or keychains live on its hooks). Its own page is
 * left out of the refetch: it would answer 404 while its screen goes away.
 */
export const useDeletePlace = (organizationId: string) => {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => call(placeEndpoints.remove, { params: { id } }),
    onSuccess: (_answer, id) =>
      queryClient.invalidateQueries({
        queryKey: placeKeys.all(organizationId),
        predicate: (query) => query.queryKey[3] !== id,
      }),
  })
}

/** Adds hooks numbered in a range (codes the board already has are skipped). */
export const useAddHooks = (organizationId: string, placeId: string) =>
  usePlaceChange(organizationId, (body: HookRange) =>
    call(placeEndpoints.addHooks, { params: { id: placeId }, body }),
  )

/** Removes a hook (409 `place_in_use` while it is a keychain's home). */
export const useRemoveHook = (organizationId: string, placeId: string) =>
  usePlaceChange(organizationId, (hookId: string) =>
    call(placeEndpoints.removeHook, { params: { id: placeId, hookId } }),
  )

/** Gives a keychain a home hook, or none: its location, its lists and the places' counts are read again. */
export const useSetKeychainHome = (organizationId: string, keychainId: string) => {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (hookId: string | null) =>
      call(placeEndpoints.setHome, { params: { id: keychainId }, body: { hookId } }),
    onSuccess: (location) => {
      queryClient.setQueryData(locationKey(organizationId, keychainId), location)
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: placeKeys.all(organizationId) }),
        queryClient.invalidateQueries({
          queryKey: keychainKeys.all(organizationId),
          predicate: (query) => query.queryKey.at(-1) !== 'location',
        }),
      ])
    },
  })
}

/** The labels of a board's hooks (and its own) for the browser's print view. */
export const fetchHookLabelSheet = (placeId: string, print: HookLabelPrint) =>
  call(placeEndpoints.labels, { params: { id: placeId }, body: print })

/** The same labels as a PDF drawn by the server, handed to the browser as a download. */
export const downloadHookLabelsPdf = (placeId: string, print: HookLabelPrint) =>
  downloadPdf(`/places/${placeId}/labels/pdf`, print, `hooks-${print.format}.pdf`)
