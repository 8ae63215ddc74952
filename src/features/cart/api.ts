import { queryOptions } from '@tanstack/react-query'
import { type CartItemCreate, CartSchema, OrderSchema } from '../../../contract/commerce.ts'
import type { Address } from '../../../contract/organizations.ts'
import { api } from '../../lib/api.ts'

export const cartKey = (organizationId: string) => ['cart', organizationId] as const

/** The selected organization's cart; keyed by it, so switching organization shows (and reloads) its own cart. */
export const cartQuery = (organizationId: string) =>
  queryOptions({ queryKey: cartKey(organizationId), queryFn: () => api('/cart', { schema: CartSchema }) })

export const addCartItem = (item: CartItemCreate) => api('/cart/items', { method: 'POST', body: item })

export const removeCartItem = (id: string) => api(`/cart/items/${id}`, { method: 'DELETE' })

export const emptyCart = () => api('/cart', { method: 'DELETE' })

export const checkout = (shippingAddress?: Address) =>
  api('/cart/checkout', {
    method: 'POST',
    body: shippingAddress ? { shippingAddress } : {},
    schema: OrderSchema,
  })
