import type { EnsureQueryDataOptions, QueryClient, QueryKey } from '@tanstack/react-query'

/**
 * A detail route's loader starts its screen's query: the data comes in while the screen's code chunk loads,
 * and as soon as a link to it is hovered (intent preloading). It does not wait for the answer, so a slow or
 * absent network never holds the page back; a failure is the screen's to show, as it does today.
 */
export function startLoading<TQueryFnData, TError, TData, TQueryKey extends QueryKey>(
  queryClient: QueryClient,
  options: EnsureQueryDataOptions<TQueryFnData, TError, TData, TQueryKey>,
): void {
  queryClient.ensureQueryData(options).catch(() => undefined)
}
