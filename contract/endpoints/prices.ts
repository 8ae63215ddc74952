import { PricesSchema } from '../pricing.ts'
import { endpoint } from './endpoint.ts'

/** The tag price list. */
export const priceEndpoints = {
  list: endpoint({ method: 'get', path: '/prices', response: PricesSchema }),
}
