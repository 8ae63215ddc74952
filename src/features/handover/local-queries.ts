import { queryOptions } from '@tanstack/react-query'
import type { HandoverActions } from './actions.ts'

/** The handovers this phone took part in, as it keeps them (offline too). */
const localHandoverKeys = {
  list: (userId: string, organizationId: string) => ['handovers-local', userId, organizationId] as const,
  one: (id: string) => ['handovers-local', 'one', id] as const,
}

export const localHandoversQuery = (actions: HandoverActions, userId: string, organizationId: string) =>
  queryOptions({
    queryKey: localHandoverKeys.list(userId, organizationId),
    queryFn: () => actions.localHandovers(userId, organizationId),
  })

export const localHandoverQuery = (actions: HandoverActions, id: string) =>
  queryOptions({
    queryKey: localHandoverKeys.one(id),
    queryFn: async () => (await actions.localHandover(id)) ?? null,
  })
