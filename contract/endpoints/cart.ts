import * as v from 'valibot'
import {
  CartItemCreateSchema,
  CartSchema,
  CheckoutSchema,
  OrderSchema,
  TagNumberingQuerySchema,
  TagNumberingSchema,
} from '../commerce.ts'
import { IdParamsSchema } from '../common.ts'
import { endpoint } from './endpoint.ts'

/** The caller's cart of the selected organization. */
export const cartEndpoints = {
  one: endpoint({ method: 'get', path: '/cart', response: CartSchema }),
  addItem: endpoint({
    method: 'post',
    path: '/cart/items',
    body: CartItemCreateSchema,
    response: CartSchema,
  }),
  tagNumbers: endpoint({
    method: 'get',
    path: '/cart/tag-numbers',
    query: TagNumberingQuerySchema,
    response: TagNumberingSchema,
  }),
  removeItem: endpoint({ method: 'delete', path: '/cart/items/:id', params: IdParamsSchema }),
  empty: endpoint({ method: 'delete', path: '/cart' }),
  checkout: endpoint({
    method: 'post',
    path: '/cart/checkout',
    body: v.optional(CheckoutSchema),
    response: OrderSchema,
  }),
}
