import { type Prices, TAG_QUANTITY_MAX, TAG_QUANTITY_MIN } from '../../../contract/pricing.ts'

/**
 * The price list (amounts in cents, before VAT). It lives in code, not in the database: a change is a
 * reviewed commit, and the browser and the server read the same numbers through `GET /api/prices`.
 */
export const PRICES: Prices = {
  currency: 'EUR',
  tagTiers: [
    { minQuantity: TAG_QUANTITY_MIN, unitAmountInCents: 250 },
    { minQuantity: 50, unitAmountInCents: 220 },
    { minQuantity: 100, unitAmountInCents: 190 },
    { minQuantity: 250, unitAmountInCents: 160 },
    { minQuantity: 500, unitAmountInCents: 140 },
    { minQuantity: 1000, unitAmountInCents: 120 },
  ],
  shippingFeeInCents: 790,
  freeShippingThresholdInCents: 15_000,
  vatRatePercent: 20,
  tagQuantity: { min: TAG_QUANTITY_MIN, max: TAG_QUANTITY_MAX },
}

/** The base (first tier) unit price of a tag: what a tier's discount is measured against. */
export const baseTagUnitPrice = (prices: Prices) => prices.tagTiers[0]?.unitAmountInCents ?? 0
