import { queryOptions } from '@tanstack/react-query'
import { OrganizationSubscriptionSchema } from '../../contract/commerce.ts'
import { api } from './api.ts'

/**
 * The organization's subscription (null without one): the plans screen shows it, the transfer screens check it
 * before offering to authorize. One query, so a transfer refreshes both.
 */
export const subscriptionQuery = (organizationId: string) =>
  queryOptions({
    queryKey: ['subscription', organizationId] as const,
    queryFn: async () =>
      (await api(`/organizations/${organizationId}/subscription`, { schema: OrganizationSubscriptionSchema }))
        .subscription,
  })
