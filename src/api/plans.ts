import { queryOptions } from '@tanstack/react-query'
import { type CartItemCreate, type Plan, PlanListSchema } from '../../contract/commerce.ts'
import { api } from '../lib/api.ts'

export const plansQuery = queryOptions({
  queryKey: ['plans'],
  queryFn: async () => (await api('/plans', { schema: PlanListSchema })).data,
  staleTime: 60 * 60 * 1000,
})

/** The cart line of a plan (one plan per cart: a new one replaces the old). */
export const planCartItem = (plan: Plan): CartItemCreate => ({
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
})
