import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query'

/**
 * A write whose success makes the queries under `queryKey` stale; its promise resolves once the ones on screen
 * have been fetched again, so a screen never shows what was there before its own change.
 */
export function useRefetchingMutation<TInput, TResult>(
  queryKey: QueryKey,
  send: (input: TInput) => Promise<TResult>,
) {
  const queryClient = useQueryClient()
  return useMutation({ mutationFn: send, onSuccess: () => queryClient.invalidateQueries({ queryKey }) })
}
