import { queryOptions } from '@tanstack/react-query'
import { pathOf } from '../../contract/endpoints/endpoint.ts'
import { transferEndpoints } from '../../contract/endpoints/transfers.ts'
import { API_BASE_URL, refusedWith } from '../lib/api.ts'
import { call } from '../lib/call.ts'

/** A transfer's handover receipt, or null when it has none (picked up without one, or not picked up yet). */
export const receiptQuery = (transferId: string) =>
  queryOptions({
    queryKey: ['transfers', 'receipt', transferId] as const,
    queryFn: async () => {
      try {
        return await call(transferEndpoints.receipt, { params: { id: transferId } })
      } catch (error) {
        if (refusedWith(error, 404)) return null
        throw error
      }
    },
  })

/** Where the receipt's PDF opens (the session cookie goes with it). */
export const receiptPdfHref = (transferId: string) =>
  `${API_BASE_URL}${pathOf(transferEndpoints.receiptPdf.path, { id: transferId })}`
