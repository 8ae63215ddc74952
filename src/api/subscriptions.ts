import { queryOptions } from '@tanstack/react-query'
import { subscriptionEndpoints } from '../../contract/endpoints/subscriptions.ts'
import { call } from '../lib/call.ts'

/**
 * The organization's subscription (null without one): the plans screen shows it, the transfer screens check it
 * before offering to authorize. One query, so a transfer refreshes both.
 */
export const subscriptionKeys = {
  all: ['subscription'] as const,
  one: (organizationId: string) => ['subscription', organizationId] as const,
}

export const subscriptionQuery = (organizationId: string) =>
  queryOptions({
    queryKey: subscriptionKeys.one(organizationId),
    queryFn: async () =>
      (await call(subscriptionEndpoints.one, { params: { id: organizationId } })).subscription,
  })
