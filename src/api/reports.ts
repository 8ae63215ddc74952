import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query'
import { reportEndpoints } from '../../contract/endpoints/reports.ts'
import { API_BASE_URL } from '../lib/api.ts'
import { call, searchOf } from '../lib/call.ts'

// The organization's reports. Their keys start with 'reports' and the organization, so a switch never shows
// another organization's figures.

/** Where the browser downloads a report as CSV (a plain link: the session cookie goes with it). */
export function reportExportHref(
  report: 'holdingsExport' | 'overdueExport' | 'unseenExport' | 'monthlyExport',
  query: object = {},
): string {
  return `${API_BASE_URL}${reportEndpoints[report].path}${searchOf(query)}`
}

/** The keychains a person holds, page after page (the printed report loads them all). */
export const holdingsQuery = (organizationId: string, person: string) =>
  infiniteQueryOptions({
    queryKey: ['reports', organizationId, 'holdings', person] as const,
    queryFn: ({ pageParam }) =>
      call(reportEndpoints.holdings, { query: { person, limit: '100', cursor: pageParam ?? undefined } }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  })

/** Who left with keys: disabled members still holding keychains or with transfers open. */
export const leaversQuery = (organizationId: string) =>
  queryOptions({
    queryKey: ['reports', organizationId, 'leavers'] as const,
    queryFn: () => call(reportEndpoints.leavers, {}),
  })

/** The open transfers addressed to a person, page after page. */
export const holdingTransfersQuery = (organizationId: string, person: string) =>
  infiniteQueryOptions({
    queryKey: ['reports', organizationId, 'holding-transfers', person] as const,
    queryFn: ({ pageParam }) =>
      call(reportEndpoints.holdingTransfers, {
        query: { person, limit: '100', cursor: pageParam ?? undefined },
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  })

export const overdueQuery = (organizationId: string, cursor: string | null) =>
  queryOptions({
    queryKey: ['reports', organizationId, 'overdue', cursor] as const,
    queryFn: () => call(reportEndpoints.overdue, { query: { cursor: cursor ?? undefined } }),
  })

export const unseenQuery = (organizationId: string, days: number, cursor: string | null) =>
  queryOptions({
    queryKey: ['reports', organizationId, 'unseen', days, cursor] as const,
    queryFn: () =>
      call(reportEndpoints.unseen, { query: { days: String(days), cursor: cursor ?? undefined } }),
  })

export type MonthRange = { from?: string | undefined; to?: string | undefined }

export const monthlyQuery = (organizationId: string, range: MonthRange) =>
  queryOptions({
    queryKey: ['reports', organizationId, 'monthly', range.from ?? '', range.to ?? ''] as const,
    queryFn: () => call(reportEndpoints.monthly, { query: range }),
  })
