import * as v from 'valibot'
import {
  CheckoutSchema,
  OrderDetailsSchema,
  OrderListQuerySchema,
  OrderPageSchema,
  OrderSchema,
  PaymentSessionSchema,
} from '../commerce.ts'
import { IdParamsSchema } from '../common.ts'
import { endpoint } from './endpoint.ts'

/**
 * Orders and their actions. The operators' production moves are named after their action (`ORDER_ACTIONS`, what
 * an order's `actions` lists), so a move is looked up by it.
 */
export const orderEndpoints = {
  create: endpoint({
    method: 'post',
    path: '/orders',
    body: v.optional(CheckoutSchema),
    response: OrderSchema,
  }),
  list: endpoint({ method: 'get', path: '/orders', query: OrderListQuerySchema, response: OrderPageSchema }),
  ofOrganization: endpoint({
    method: 'get',
    path: '/organizations/:id/orders',
    params: IdParamsSchema,
    query: OrderListQuerySchema,
    response: OrderPageSchema,
  }),
  one: endpoint({ method: 'get', path: '/orders/:id', params: IdParamsSchema, response: OrderSchema }),
  details: endpoint({
    method: 'get',
    path: '/orders/:id/details',
    params: IdParamsSchema,
    response: OrderDetailsSchema,
  }),
  startPayment: endpoint({
    method: 'post',
    path: '/orders/:id/sessions',
    params: IdParamsSchema,
    response: PaymentSessionSchema,
  }),
  checkPayment: endpoint({
    method: 'post',
    path: '/orders/:id/checks',
    params: IdParamsSchema,
    response: OrderSchema,
  }),
  confirmations: endpoint({
    method: 'post',
    path: '/orders/:id/confirmations',
    params: IdParamsSchema,
    response: OrderSchema,
  }),
  productions: endpoint({
    method: 'post',
    path: '/orders/:id/productions',
    params: IdParamsSchema,
    response: OrderSchema,
  }),
  shipments: endpoint({
    method: 'post',
    path: '/orders/:id/shipments',
    params: IdParamsSchema,
    response: OrderSchema,
  }),
  deliveries: endpoint({
    method: 'post',
    path: '/orders/:id/deliveries',
    params: IdParamsSchema,
    response: OrderSchema,
  }),
  /** A CSV file, not JSON: no answer schema. */
  exportTags: endpoint({ method: 'post', path: '/orders/:id/tags-exports', params: IdParamsSchema }),
}
