import { PricesSchema } from '../../../contract/pricing.ts'
import type { ApiRouter } from '../../http/api-router.ts'
import { PRICES } from './prices.ts'

export function priceRoutes(api: ApiRouter): void {
  api.route(
    {
      method: 'get',
      path: '/prices',
      summary:
        'Tag price tiers, shipping fee, free-shipping threshold, VAT rate and quantity bounds (public)',
      access: 'public',
      responses: { 200: { description: 'The price list', schema: PricesSchema } },
    },
    (c) => c.json(PRICES, 200),
  )
}
