import * as v from 'valibot'

/** Quantity bounds of one tag order line (printing runs below or above these are not offered). */
export const TAG_QUANTITY_MIN = 10
export const TAG_QUANTITY_MAX = 5000

const PriceTierSchema = v.object({
  /** The tier applies from this quantity on. */
  minQuantity: v.number(),
  unitAmountInCents: v.number(),
})

export const PricesSchema = v.object({
  currency: v.literal('EUR'),
  /** Ordered by `minQuantity`; the first tier is the base price. */
  tagTiers: v.array(PriceTierSchema),
  shippingFeeInCents: v.number(),
  /** Shipping is free from this subtotal (after discount) on. */
  freeShippingThresholdInCents: v.number(),
  /** VAT in percent, shown as a separate tax line (prices are before VAT). */
  vatRatePercent: v.number(),
  tagQuantity: v.object({ min: v.number(), max: v.number() }),
})
export type Prices = v.InferOutput<typeof PricesSchema>

export type PriceBreakdown = {
  unitAmountInCents: number
  subtotalInCents: number
  /** What the tier saves compared with the base price. */
  discountInCents: number
  shippingInCents: number
  freeShipping: boolean
  taxInCents: number
  totalInCents: number
}

/** The unit price of `quantity` tags: the highest tier the quantity reaches. */
export function tagUnitPrice(prices: Prices, quantity: number): number {
  let unit = prices.tagTiers[0]?.unitAmountInCents ?? 0
  for (const tier of prices.tagTiers) if (quantity >= tier.minQuantity) unit = tier.unitAmountInCents
  return unit
}

/**
 * The one price computation, used by the browser's preview and by the server, which recomputes every amount.
 * `lines` are (unit price, quantity, base unit price) of the cart or order; shipping applies when a line ships,
 * and is free when the lines that ship (not a plan) reach the threshold by themselves, after discount.
 */
export function priceBreakdown(
  prices: Prices,
  lines: Array<{
    unitAmountInCents: number
    quantity: number
    baseUnitAmountInCents: number
    ships: boolean
  }>,
): PriceBreakdown {
  const base = lines.reduce((sum, line) => sum + line.baseUnitAmountInCents * line.quantity, 0)
  const subtotal = lines.reduce((sum, line) => sum + line.unitAmountInCents * line.quantity, 0)
  const discount = base - subtotal
  const ships = lines.some((line) => line.ships)
  const shipped = lines.reduce(
    (sum, line) => sum + (line.ships ? line.unitAmountInCents * line.quantity : 0),
    0,
  )
  const freeShipping = ships && shipped >= prices.freeShippingThresholdInCents
  const shipping = ships && !freeShipping ? prices.shippingFeeInCents : 0
  const tax = Math.round(((subtotal + shipping) * prices.vatRatePercent) / 100)
  return {
    unitAmountInCents: lines.length === 1 ? (lines[0]?.unitAmountInCents ?? 0) : 0,
    subtotalInCents: subtotal,
    discountInCents: discount,
    shippingInCents: shipping,
    freeShipping,
    taxInCents: tax,
    totalInCents: subtotal + shipping + tax,
  }
}

/** Relative luminance (WCAG) of `#rrggbb`. */
function luminance(hex: string): number {
  const channel = (index: number) => {
    const value = Number.parseInt(hex.slice(1 + index * 2, 3 + index * 2), 16) / 255
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4
  }
  return 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2)
}

export function contrastRatio(foreground: string, background: string): number {
  const [light, dark] = [luminance(foreground), luminance(background)].sort((a, b) => b - a) as [
    number,
    number,
  ]
  return (light + 0.05) / (dark + 0.05)
}

/**
 * A QR code reads reliably with dark modules on a light background and a contrast of at least 4.5:1 (phone
 * cameras fail on light-on-dark codes and on pale pairs).
 */
export const MIN_QR_CONTRAST = 4.5

export function qrColorsReadable(foreground: string, background: string): boolean {
  return (
    luminance(foreground) < luminance(background) && contrastRatio(foreground, background) >= MIN_QR_CONTRAST
  )
}
