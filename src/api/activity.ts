import { queryOptions, useMutation } from '@tanstack/react-query'
import { activityEndpoints } from '../../contract/endpoints/activity.ts'
import type { EventKind } from '../../contract/events.ts'
import { API_BASE_URL } from '../lib/api.ts'
import { call, searchOf } from '../lib/call.ts'

export type ActivityFilter = {
  q?: string | undefined
  kind?: EventKind | undefined
  from?: string | undefined
  to?: string | undefined
}

/** A page of the selected organization's ledger, newest first. */
export const activityQuery = (organizationId: string, filter: ActivityFilter, cursor: string | null) =>
  queryOptions({
    queryKey: [
      'activity',
      organizationId,
      filter.q ?? '',
      filter.kind ?? '',
      filter.from ?? '',
      filter.to ?? '',
      cursor,
    ] as const,
    queryFn: () => call(activityEndpoints.list, { query: { ...filter, cursor: cursor ?? undefined } }),
  })

/** Where the browser downloads the filtered view as CSV (a plain link: the session cookie goes with it). */
export function activityExportHref(filter: ActivityFilter): string {
  return `${API_BASE_URL}${activityEndpoints.export.path}${searchOf(filter)}`
}

/** Recomputes the ledger's hash chain on the server. */
export function useVerifyActivity() {
  return useMutation({ mutationFn: () => call(activityEndpoints.verification) })
}
