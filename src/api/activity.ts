import { queryOptions, useMutation } from '@tanstack/react-query'
import { activityEndpoints } from '../../contract/endpoints/activity.ts'
import { keychainEndpoints } from '../../contract/endpoints/keychains.ts'
import { tagEndpoints } from '../../contract/endpoints/tags.ts'
import type { EventKind } from '../../contract/events.ts'
import { API_BASE_URL } from '../lib/api.ts'
import { call, searchOf } from '../lib/call.ts'

/** A view of the ledger: each field narrows it (a person is who did it; a keychain or tag, what it touched). */
export type ActivityFilter = {
  q?: string | undefined
  kind?: EventKind | undefined
  person?: string | undefined
  keychain?: string | undefined
  tag?: string | undefined
  from?: string | undefined
  to?: string | undefined
}

/** The filters in the order the URL, the request and the export carry them. */
const ACTIVITY_FILTER_FIELDS = ['q', 'kind', 'person', 'keychain', 'tag', 'from', 'to'] as const

/** The same view with its fields in one order and the empty ones left out. */
export function ordered(filter: ActivityFilter): ActivityFilter {
  const result: ActivityFilter = {}
  for (const field of ACTIVITY_FILTER_FIELDS) {
    const value = filter[field]
    if (value !== undefined && value !== '') Object.assign(result, { [field]: value })
  }
  return result
}

/** The view as a URL's search (`?kind=…&person=…`), fields in order, empty ones left out: the activity page's. */
export function activitySearch(filter: ActivityFilter): string {
  return searchOf(ordered(filter))
}

/** A page of the selected organization's ledger, newest first. */
export const activityQuery = (organizationId: string, filter: ActivityFilter, cursor: string | null) =>
  queryOptions({
    queryKey: [
      'activity',
      organizationId,
      ...ACTIVITY_FILTER_FIELDS.map((field) => filter[field] ?? ''),
      cursor,
    ] as const,
    queryFn: () =>
      call(activityEndpoints.list, { query: { ...ordered(filter), cursor: cursor ?? undefined } }),
  })

/** Where the browser downloads the filtered view as CSV (a plain link: the session cookie goes with it). */
export function activityExportHref(filter: ActivityFilter): string {
  return `${API_BASE_URL}${activityEndpoints.export.path}${activitySearch(filter)}`
}

/** Recomputes the ledger's hash chain on the server. */
export function useVerifyActivity() {
  return useMutation({ mutationFn: () => call(activityEndpoints.verification) })
}

/** The ledger's head, signed by the server: its last entry's number and chain hash. */
export const activityHeadQuery = (organizationId: string) =>
  queryOptions({
    queryKey: ['activity-head', organizationId] as const,
    queryFn: () => call(activityEndpoints.head),
  })

/** A keychain or tag the view can be narrowed to, as the picker offers it. */
export type ActivityTarget =
  | { kind: 'keychain'; id: string; name: string }
  | { kind: 'tag'; id: string; code: string; keychainName: string | null }

/** Keychains (by name or tag code) and tags (by code or name) matching `q`, a few of each, for the picker. */
export const activityTargetsQuery = (organizationId: string, q: string) =>
  queryOptions({
    queryKey: ['activity-targets', organizationId, q] as const,
    queryFn: async ({ signal }): Promise<ActivityTarget[]> => {
      const [keychains, tags] = await Promise.all([
        call(keychainEndpoints.list, { query: { q, limit: '5' }, signal }),
        call(tagEndpoints.list, { query: { q, limit: '5' }, signal }),
      ])
      return [
        ...keychains.data.map((keychain) => ({
          kind: 'keychain' as const,
          id: keychain.id,
          name: keychain.name,
        })),
        ...tags.data.map((tag) => ({
          kind: 'tag' as const,
          id: tag.id,
          code: tag.code,
          keychainName: tag.key?.keychainName ?? null,
        })),
      ]
    },
    staleTime: 30_000,
  })
