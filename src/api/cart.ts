import { queryOptions } from '@tanstack/react-query'
import type { CartItemCreate } from '../../contract/commerce.ts'
import { cartEndpoints } from '../../contract/endpoints/cart.ts'
import type { Address } from '../../contract/organizations.ts'
import { call } from '../lib/call.ts'
import { cartKey } from './cart-key.ts'
import { useRefetchingMutation } from './refetching-mutation.ts'

/** The selected organization's cart; keyed by it, so switching organization shows (and reloads) its own cart. */
export const cartQuery = (organizationId: string) =>
  queryOptions({ queryKey: cartKey(organizationId), queryFn: () => call(cartEndpoints.one) })

/** The cart's changes; each resolves once the organization's cart has been fetched again. */
const useCartMutation = <TInput, TResult>(
  organizationId: string,
  send: (input: TInput) => Promise<TResult>,
) => useRefetchingMutation(cartKey(organizationId), send)

/** Puts a line in the cart (a plan replaces the cart's plan). */
export const useAddToCart = (organizationId: string) =>
  useCartMutation(organizationId, (item: CartItemCreate) => call(cartEndpoints.addItem, { body: item }))

export const useRemoveCartItem = (organizationId: string) =>
  useCartMutation(organizationId, (id: string) => call(cartEndpoints.removeItem, { params: { id } }))

export const useEmptyCart = (organizationId: string) =>
  useCartMutation(organizationId, () => call(cartEndpoints.empty))

/** Turns the cart into an order (shipped to `shippingAddress`, else to the organization's address). */
export const useCheckout = (organizationId: string) =>
  useCartMutation(organizationId, (shippingAddress?: Address) =>
    call(cartEndpoints.checkout, { body: shippingAddress ? { shippingAddress } : {} }),
  )
