import { queryOptions } from '@tanstack/react-query'
import type { CartItemCreate, Plan } from '../../contract/commerce.ts'
import { planEndpoints } from '../../contract/endpoints/plans.ts'
import { call } from '../lib/call.ts'

export const plansQuery = queryOptions({
  queryKey: ['plans'],
  queryFn: async () => (await call(planEndpoints.list)).data,
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
