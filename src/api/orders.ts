import { infiniteQueryOptions, queryOptions, useQuery } from '@tanstack/react-query'
import { useRef } from 'react'
import type { OrderAction } from '../../contract/commerce.ts'
import { orderEndpoints } from '../../contract/endpoints/orders.ts'
import { API_BASE_URL, ApiError } from '../lib/api.ts'
import { call } from '../lib/call.ts'
import { useRefetchingMutation } from './refetching-mutation.ts'

const orderKeys = {
  all: ['orders'] as const,
  one: (id: string) => ['orders', id] as const,
  check: (id: string) => ['orders', id, 'check'] as const,
}

export const orderListQuery = infiniteQueryOptions({
  queryKey: [...orderKeys.all, 'list'],
  initialPageParam: null as string | null,
  queryFn: ({ pageParam }) => call(orderEndpoints.list, { query: { cursor: pageParam ?? undefined } }),
  getNextPageParam: (page) => page.nextCursor,
})

export const orderDetailsQuery = (id: string) =>
  queryOptions({
    queryKey: orderKeys.one(id),
    queryFn: () => call(orderEndpoints.details, { params: { id } }),
  })

const checkOrder = (id: string) => call(orderEndpoints.checkPayment, { params: { id } })

const CHECK_POLL_MS = 2000
/** After about a minute the result page stops asking and says the payment is still being processed. */
const CHECK_MAX_POLLS = 30

/**
 * After the payment page: the order, its status asked of the provider through the server, again every two
 * seconds while `poll` and the order is still CREATED, until an error or about a minute (`gaveUp`).
 */
export function useOrderCheck(id: string | undefined, { poll }: { poll: boolean }) {
  const polls = useRef(0)
  const { data, isError } = useQuery({
    queryKey: orderKeys.check(id ?? ''),
    queryFn: () => {
      polls.current += 1
      return checkOrder(id ?? '')
    },
    enabled: Boolean(id),
    retry: false,
    refetchInterval: (query) =>
      !poll ||
      query.state.status === 'error' ||
      (query.state.data && query.state.data.status !== 'CREATED') ||
      polls.current >= CHECK_MAX_POLLS
        ? false
        : CHECK_POLL_MS,
  })
  return { order: data, isError, gaveUp: polls.current >= CHECK_MAX_POLLS }
}

export const startPayment = (id: string) => call(orderEndpoints.startPayment, { params: { id } })

/** Operator moves: confirmations, productions, shipments, deliveries; every order list and page is refetched. */
export const useMoveOrder = (id: string) =>
  useRefetchingMutation(
    orderKeys.all,
    (action: Exclude<OrderAction, 'sessions' | 'checks' | 'tags-exports'>) =>
      call(orderEndpoints[action], { params: { id } }),
  )

/** Downloads the CSV of an order's tags (code, name, colours, public URL) as a file. */
export async function downloadTagsCsv(id: string, reference: string): Promise<void> {
  const response = await fetch(`${API_BASE_URL}/orders/${id}/tags-exports`, {
    method: 'POST',
    credentials: 'include',
    headers: { 'Content-Type': 'application/json', Accept: 'text/csv' },
    body: '{}',
  })
  if (!response.ok) throw new ApiError(response.status, 'export_failed', 'The CSV could not be downloaded.')
  const url = URL.createObjectURL(await response.blob())
  const link = document.createElement('a')
  link.href = url
  link.download = `${reference}-tags.csv`
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 1000)
}
