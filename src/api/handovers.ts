import { queryOptions } from '@tanstack/react-query'
import { pathOf } from '../../contract/endpoints/endpoint.ts'
import { handoverEndpoints } from '../../contract/endpoints/handovers.ts'
import type { Handover } from '../../contract/handover.ts'
import { API_BASE_URL } from '../lib/api.ts'
import { call } from '../lib/call.ts'

const handoverKeys = {
  list: (organizationId: string, status: Handover['status'] | undefined) =>
    ['handovers', organizationId, 'list', status ?? ''] as const,
  one: (organizationId: string, id: string) => ['handovers', organizationId, 'one', id] as const,
}

/** The handovers the server has had (managers: all of the organization's; others: theirs), newest first. */
export const handoversQuery = (organizationId: string, status?: Handover['status']) =>
  queryOptions({
    queryKey: handoverKeys.list(organizationId, status),
    queryFn: () => call(handoverEndpoints.list, { query: { status } }),
  })

export const handoverQuery = (organizationId: string, id: string) =>
  queryOptions({
    queryKey: handoverKeys.one(organizationId, id),
    queryFn: () => call(handoverEndpoints.one, { params: { id } }),
  })

const receiptUrl = (path: string, id: string) => `${API_BASE_URL}${pathOf(path, { id })}`

/** Where a handover's signed receipt downloads (the session cookie goes with it). */
export const receiptJsonUrl = (id: string) => receiptUrl(handoverEndpoints.receipt.path, id)
export const receiptPdfUrl = (id: string) => receiptUrl(handoverEndpoints.receiptPdf.path, id)
