import { queryOptions } from '@tanstack/react-query'
import { planEndpoints } from '../../contract/endpoints/plans.ts'
import { call } from '../lib/call.ts'

export const plansQuery = queryOptions({
  queryKey: ['plans'],
  queryFn: async () => (await call(planEndpoints.list)).data,
  staleTime: 60 * 60 * 1000,
})
