import { keepPreviousData, queryOptions } from '@tanstack/react-query'
import { cartEndpoints } from '../../contract/endpoints/cart.ts'
import { call } from '../lib/call.ts'
import { cartKey } from './cart-key.ts'

// Apart from cart.ts, which the app shell loads (the cart button): only the tag order screens need this.

/** What a new TAG line would be numbered (after the cart's own lines); under the cart's key, so it follows it. */
export const tagNumbersQuery = (
  organizationId: string,
  query: { alphaCode?: string; startNumber?: string; quantity?: string },
) =>
  queryOptions({
    queryKey: [...cartKey(organizationId), 'tag-numbers', query] as const,
    queryFn: () => call(cartEndpoints.tagNumbers, { query }),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  })
