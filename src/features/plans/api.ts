import { queryOptions } from '@tanstack/react-query'
import { type Plan, PlanListSchema } from '../../../contract/commerce.ts'
import { api } from '../../lib/api.ts'

export const plansQuery = queryOptions({
  queryKey: ['plans'],
  queryFn: async () => (await api('/plans', { schema: PlanListSchema })).data,
  staleTime: 60 * 60 * 1000,
})

/** Puts the plan in the selected organization's cart (one plan per cart: a new one replaces the old). */
export const choosePlan = (plan: Plan) =>
  api('/cart/items', {
    method: 'POST',
    body: {
      productType: 'PLAN',
      productRefId: plan.id,
      quantity: 1,
      unitAmountInCents: plan.amountInCents,
      configuration: {
        billingCycle: plan.recurringInterval === 'year' ? 'YEARLY' : 'MONTHLY',
        recurringInterval: plan.recurringInterval,
        recurringIntervalCount: plan.recurringIntervalCount,
        quantity: plan.quantity,
        name: plan.name,
      },
    },
  })
