import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { foundReportEndpoints } from '../../contract/endpoints/found-reports.ts'
import type { FoundReportDetail, FoundReportStatus } from '../../contract/found-reports.ts'
import { call } from '../lib/call.ts'

const foundReportKeys = {
  all: (organizationId: string) => ['found-reports', organizationId] as const,
  list: (organizationId: string, status: FoundReportStatus | undefined, cursor: string | null) =>
    ['found-reports', organizationId, 'list', status ?? '', cursor] as const,
  one: (organizationId: string, id: string) => ['found-reports', organizationId, 'one', id] as const,
}

/** A page of the selected organization's found-key reports, newest first, optionally one status. */
export const foundReportsQuery = (
  organizationId: string,
  status: FoundReportStatus | undefined,
  cursor: string | null,
) =>
  queryOptions({
    queryKey: foundReportKeys.list(organizationId, status, cursor),
    queryFn: () => call(foundReportEndpoints.list, { query: { status, cursor: cursor ?? undefined } }),
  })

export const foundReportQuery = (organizationId: string, id: string) =>
  queryOptions({
    queryKey: foundReportKeys.one(organizationId, id),
    queryFn: () => call(foundReportEndpoints.one, { params: { id } }),
  })

/** The report as the server answers a change: shown at once, and the lists read again. */
function useReportChange<Input>(
  organizationId: string,
  id: string,
  send: (input: Input) => Promise<FoundReportDetail>,
) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: send,
    onSuccess: (report) => {
      queryClient.setQueryData(foundReportKeys.one(organizationId, id), report)
      return queryClient.invalidateQueries({
        queryKey: foundReportKeys.all(organizationId),
        predicate: (query) => query.queryKey[2] === 'list',
      })
    },
  })
}

export const useChangeFoundReportStatus = (organizationId: string, id: string) =>
  useReportChange(organizationId, id, (status: FoundReportStatus) =>
    call(foundReportEndpoints.changeStatus, { params: { id }, body: { status } }),
  )

export const useReplyToFinder = (organizationId: string, id: string) =>
  useReportChange(organizationId, id, (message: string) =>
    call(foundReportEndpoints.reply, { params: { id }, body: { message } }),
  )
