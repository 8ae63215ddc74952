import { queryOptions } from '@tanstack/react-query'
import { priceEndpoints } from '../../contract/endpoints/prices.ts'
import { call } from '../lib/call.ts'

/** The tag price list (the order form prices a quantity with it); it changes with a deployment, not in a session. */
export const pricesQuery = queryOptions({
  queryKey: ['prices'],
  queryFn: () => call(priceEndpoints.list),
  staleTime: 60 * 60 * 1000,
})
