import { priceEndpoints } from '../../../contract/endpoints/prices.ts'
import type { ApiRouter } from '../../http/api-router.ts'
import { PRICES } from './prices.ts'

export function priceRoutes(api: ApiRouter): void {
  api.route(
    {
      ...priceEndpoints.list,
      summary:
        'Tag price tiers, shipping fee, free-shipping threshold, VAT rate and quantity bounds (public)',
      access: 'public',
      responses: { 200: { description: 'The price list' } },
    },
    (c) => c.json(PRICES, 200),
  )
}
