import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { stocktakeEndpoints } from '../../contract/endpoints/stocktakes.ts'
import type { StocktakeStatus } from '../../contract/stocktakes.ts'
import { call } from '../lib/call.ts'
import { fetchPlace } from './places.ts'

const stocktakeKeys = {
  all: (organizationId: string) => ['stocktakes', organizationId] as const,
  list: (organizationId: string, status: StocktakeStatus | undefined) =>
    ['stocktakes', organizationId, 'list', status ?? ''] as const,
  due: (organizationId: string) => ['stocktakes', organizationId, 'due'] as const,
  one: (organizationId: string, id: string) => ['stocktakes', organizationId, 'one', id] as const,
}

/** While a stocktake is open its page reads the tally again this often: other devices' scans show up. */
const OPEN_STOCKTAKE_REFRESH_MS = 3000

export const stocktakeListQuery = (organizationId: string, status?: StocktakeStatus) =>
  queryOptions({
    queryKey: stocktakeKeys.list(organizationId, status),
    queryFn: () => call(stocktakeEndpoints.list, { query: { status } }),
  })

export const stocktakesDueQuery = (organizationId: string) =>
  queryOptions({
    queryKey: stocktakeKeys.due(organizationId),
    queryFn: async () => (await call(stocktakeEndpoints.due)).data,
  })

/** A stocktake's tally, read again every few seconds while it is open. */
export const stocktakeQuery = (organizationId: string, id: string) =>
  queryOptions({
    queryKey: stocktakeKeys.one(organizationId, id),
    queryFn: () => call(stocktakeEndpoints.one, { params: { id } }),
    refetchInterval: (query) => (query.state.data?.status === 'OPEN' ? OPEN_STOCKTAKE_REFRESH_MS : false),
  })

/**
 * The pages of the boards a stocktake covers (their hooks, with the public ids their labels encode): a device
 * that has read them once knows each hook label it scans, offline too.
 */
export const stocktakeBoardsQuery = (organizationId: string, id: string, boardIds: readonly string[]) =>
  queryOptions({
    queryKey: [...stocktakeKeys.one(organizationId, id), 'boards', boardIds.join(',')] as const,
    queryFn: () => Promise.all(boardIds.map((board) => fetchPlace(board))),
    staleTime: 5 * 60_000,
  })

/** Starts a stocktake of a place and what is under it, or of the whole organization (`null`). */
export function useStartStocktake(organizationId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (placeId: string | null) => call(stocktakeEndpoints.start, { body: { placeId } }),
    onSuccess: (detail) => {
      queryClient.setQueryData(stocktakeKeys.one(organizationId, detail.id), detail)
      return queryClient.invalidateQueries({ queryKey: stocktakeKeys.all(organizationId) })
    },
  })
}

/** Closes it (409 `stocktake_scans_unsent` while a device says it has scans on the way). */
export function useCloseStocktake(organizationId: string, id: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => call(stocktakeEndpoints.close, { params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: stocktakeKeys.all(organizationId) }),
  })
}

/** Tells the server how many scans this device has made for the stocktake (it never counts down). */
export const reportScansMade = (id: string, deviceId: string, made: number) =>
  call(stocktakeEndpoints.reportDevice, { params: { id, deviceId }, body: { made } })

/** The report's address (CSV or PDF), in the reader's language. */
export const stocktakeReportHref = (id: string, format: 'csv' | 'pdf') =>
  `/api/stocktakes/${encodeURIComponent(id)}/report/${format}`
