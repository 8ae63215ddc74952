import { describe, expect, it } from 'vitest'
import {
  contrastRatio,
  MIN_QR_CONTRAST,
  type Prices,
  priceBreakdown,
  qrColorsReadable,
  TAG_QUANTITY_MAX,
  TAG_QUANTITY_MIN,
  tagUnitPrice,
} from './pricing.ts'

const prices: Prices = {
  currency: 'EUR',
  tagTiers: [
    { minQuantity: 10, unitAmountInCents: 500 },
    { minQuantity: 100, unitAmountInCents: 400 },
    { minQuantity: 1000, unitAmountInCents: 300 },
  ],
  shippingFeeInCents: 990,
  freeShippingThresholdInCents: 10_000,
  vatRatePercent: 20,
  tagQuantity: { min: TAG_QUANTITY_MIN, max: TAG_QUANTITY_MAX },
}

const tags = (quantity: number, unit = tagUnitPrice(prices, quantity)) => ({
  unitAmountInCents: unit,
  quantity,
  baseUnitAmountInCents: 500,
  ships: true,
})
const plan = (amount: number) => ({
  unitAmountInCents: amount,
  quantity: 1,
  baseUnitAmountInCents: amount,
  ships: false,
})

describe('tag order bounds', () => {
  it('offers runs of 10 to 5000 tags', () => {
    expect([TAG_QUANTITY_MIN, TAG_QUANTITY_MAX]).toEqual([10, 5000])
  })
})

describe('the unit price of a tag: the highest tier the quantity reaches', () => {
  it.each([
    [1, 500],
    [10, 500],
    [99, 500],
    [100, 400],
    [101, 400],
    [999, 400],
    [1000, 300],
    [5000, 300],
  ])('%i tags cost %i cents each', (quantity, unit) => {
    expect(tagUnitPrice(prices, quantity)).toBe(unit)
  })

  it('is the base price below the first tier, and 0 without any tier', () => {
    expect(tagUnitPrice({ ...prices, tagTiers: [{ minQuantity: 50, unitAmountInCents: 700 }] }, 10)).toBe(700)
    expect(tagUnitPrice({ ...prices, tagTiers: [] }, 10)).toBe(0)
  })
})

describe('the price breakdown', () => {
  it('charges shipping below the free-shipping threshold, with VAT on goods and shipping', () => {
    // 99 × 100 = 9 900: one euro short of free shipping.
    expect(
      priceBreakdown({ ...prices, tagTiers: [{ minQuantity: 1, unitAmountInCents: 100 }] }, [
        { unitAmountInCents: 100, quantity: 99, baseUnitAmountInCents: 100, ships: true },
      ]),
    ).toEqual({
      unitAmountInCents: 100,
      subtotalInCents: 9900,
      discountInCents: 0,
      shippingInCents: 990,
      freeShipping: false,
      taxInCents: 2178,
      totalInCents: 9900 + 990 + 2178,
    })
  })

  it('ships free at the threshold exactly', () => {
    expect(priceBreakdown(prices, [tags(25, 400)])).toEqual({
      unitAmountInCents: 400,
      subtotalInCents: 10_000,
      discountInCents: 2500,
      shippingInCents: 0,
      freeShipping: true,
      taxInCents: 2000,
      totalInCents: 12_000,
    })
  })

  it('counts only what ships toward the threshold: a plan does not make tags ship free', () => {
    const breakdown = priceBreakdown(prices, [plan(9000), tags(10)])
    expect(breakdown).toEqual({
      unitAmountInCents: 0,
      subtotalInCents: 14_000,
      discountInCents: 0,
      shippingInCents: 990,
      freeShipping: false,
      taxInCents: Math.round((14_000 + 990) * 0.2),
      totalInCents: 14_000 + 990 + 2998,
    })
  })

  it('charges no shipping for a plan alone, whatever its amount', () => {
    expect(priceBreakdown(prices, [plan(1900)])).toEqual({
      unitAmountInCents: 1900,
      subtotalInCents: 1900,
      discountInCents: 0,
      shippingInCents: 0,
      freeShipping: false,
      taxInCents: 380,
      totalInCents: 2280,
    })
  })

  it('gives the discount a tier saves against the base price, and rounds VAT to the nearest cent', () => {
    const breakdown = priceBreakdown({ ...prices, vatRatePercent: 5.5 }, [tags(1000)])
    expect(breakdown.subtotalInCents).toBe(300_000)
    expect(breakdown.discountInCents).toBe(200_000)
    expect(breakdown.taxInCents).toBe(16_500)
    // 10 × 1.01 € at 5.5 %: 0.5555 € of VAT is 56 cents.
    const rounded = priceBreakdown({ ...prices, vatRatePercent: 5.5 }, [
      { unitAmountInCents: 101, quantity: 10, baseUnitAmountInCents: 101, ships: false },
    ])
    expect(rounded.taxInCents).toBe(56)
    // 0.5 cent rounds up: 10 cents at 5 %.
    expect(
      priceBreakdown({ ...prices, vatRatePercent: 5 }, [
        { unitAmountInCents: 10, quantity: 1, baseUnitAmountInCents: 10, ships: false },
      ]).taxInCents,
    ).toBe(1)
  })

  it('answers zeros for an empty cart', () => {
    expect(priceBreakdown(prices, [])).toEqual({
      unitAmountInCents: 0,
      subtotalInCents: 0,
      discountInCents: 0,
      shippingInCents: 0,
      freeShipping: false,
      taxInCents: 0,
      totalInCents: 0,
    })
  })
})

describe('QR colours', () => {
  it.each([
    ['#000000', '#ffffff', 21],
    ['#ffffff', '#000000', 21],
    ['#ffffff', '#ffffff', 1],
    ['#777777', '#ffffff', 4.478],
    ['#767676', '#ffffff', 4.542],
    ['#0000ff', '#ffffff', 8.592],
    ['#ff0000', '#ffffff', 3.998],
    ['#00ff00', '#000000', 15.304],
    // Channels at the WCAG knee: 10/255 ≈ 0.0392 is on the linear side, 11/255 ≈ 0.0431 on the curve.
    ['#0a0a0a', '#000000', 1.061],
    ['#0b0b0b', '#000000', 1.067],
  ])('contrast of %s on %s is %d:1', (foreground, background, ratio) => {
    expect(contrastRatio(foreground, background)).toBeCloseTo(ratio, 3)
  })

  it('weighs the channels by the eye’s sensitivity (green most, blue least)', () => {
    const onBlack = (hex: string) => contrastRatio(hex, '#000000')
    expect(onBlack('#ff0000')).toBeCloseTo((0.2126 + 0.05) / 0.05, 6)
    expect(onBlack('#00ff00')).toBeCloseTo((0.7152 + 0.05) / 0.05, 6)
    expect(onBlack('#0000ff')).toBeCloseTo((0.0722 + 0.05) / 0.05, 6)
    expect(onBlack('#808080')).toBeCloseTo((((128 / 255 + 0.055) / 1.055) ** 2.4 + 0.05) / 0.05, 6)
    expect(onBlack('#050505')).toBeCloseTo((5 / 255 / 12.92 + 0.05) / 0.05, 6)
  })

  it('needs 4.5:1, dark on light', () => {
    expect(MIN_QR_CONTRAST).toBe(4.5)
    expect(qrColorsReadable('#000000', '#ffffff')).toBe(true)
    expect(qrColorsReadable('#767676', '#ffffff')).toBe(true)
    expect(qrColorsReadable('#777777', '#ffffff')).toBe(false)
    // Light on dark does not scan, however strong the contrast.
    expect(qrColorsReadable('#ffffff', '#000000')).toBe(false)
    expect(qrColorsReadable('#123456', '#123456')).toBe(false)
  })
})
