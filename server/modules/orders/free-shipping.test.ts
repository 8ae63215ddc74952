import { describe, expect, it } from 'vitest'
import type { Cart } from '../../../contract/commerce.ts'
import { planCartItem } from '../../../contract/commerce.ts'
import { priceBreakdown } from '../../../contract/pricing.ts'
import { plansOf, tagItem } from '../../../tests/server/commerce.ts'
import { organizationWithAdmin } from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { PLAN_IDS } from '../plans/catalog.ts'
import { PRICES } from '../prices/prices.ts'

const t = setupTestApp()

describe('free shipping', () => {
  it('counts only the lines that ship against the threshold: a yearly plan + 20 tags still pays shipping', async () => {
    const { admin } = await organizationWithAdmin(t)
    const plans = await plansOf(t, admin.cookie)
    for (const item of [
      planCartItem(plans.find((plan) => plan.id === PLAN_IDS.essentielYearly)!),
      tagItem(20),
    ]) {
      expect((await t.post('/api/cart/items', { cookie: admin.cookie, json: item })).status).toBe(201)
    }
    const cart = (await (await t.get('/api/cart', { cookie: admin.cookie })).json()) as Cart
    expect(cart.totals).toMatchObject({
      subtotalInCents: 24_000,
      shippingInCents: 790,
      freeShipping: false,
      totalInCents: Math.round((24_000 + 790) * 1.2),
    })
  })

  it('is free when the shipped lines reach the threshold after discount, whatever the plan adds', () => {
    const line = (unit: number, quantity: number, ships: boolean, base = unit) => ({
      unitAmountInCents: unit,
      baseUnitAmountInCents: base,
      quantity,
      ships,
    })
    expect(priceBreakdown(PRICES, [line(190, 100, true, 250)])).toMatchObject({
      freeShipping: true,
      shippingInCents: 0,
    })
    expect(priceBreakdown(PRICES, [line(220, 68, true, 250)])).toMatchObject({
      freeShipping: false,
      shippingInCents: 790,
    })
    expect(priceBreakdown(PRICES, [line(99_000, 1, false), line(220, 68, true, 250)])).toMatchObject({
      freeShipping: false,
      shippingInCents: 790,
    })
    expect(priceBreakdown(PRICES, [line(99_000, 1, false)])).toMatchObject({
      freeShipping: false,
      shippingInCents: 0,
    })
  })
})
