import { queryOptions } from '@tanstack/react-query'
import { OrganizationSubscriptionSchema } from '../../contract/commerce.ts'
import { api } from '../lib/api.ts'

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
      (await api(`/organizations/${organizationId}/subscription`, { schema: OrganizationSubscriptionSchema }))
        .subscription,
  })
