import type * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import type { Plan, PlanListSchema } from '../../../contract/commerce.ts'
import { type Prices, priceBreakdown, tagUnitPrice } from '../../../contract/pricing.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { PLAN_IDS } from '../plans/catalog.ts'

const t = setupTestApp()

describe('GET /prices', () => {
  it('is public: tiers from the base price down, shipping, free-shipping threshold, VAT, quantity bounds', async () => {
    const response = await t.get('/api/prices')
    expect(response.status).toBe(200)
    const prices = (await response.json()) as Prices
    expect(prices).toMatchObject({
      currency: 'EUR',
      shippingFeeInCents: 790,
      freeShippingThresholdInCents: 15_000,
      vatRatePercent: 20,
      tagQuantity: { min: 10, max: 5000 },
    })
    expect(prices.tagTiers.map((tier) => tier.minQuantity)).toEqual([10, 50, 100, 250, 500, 1000])
    const units = prices.tagTiers.map((tier) => tier.unitAmountInCents)
    expect(units).toEqual([...units].sort((a, b) => b - a))
    expect(tagUnitPrice(prices, 49)).toBe(250)
    expect(tagUnitPrice(prices, 1000)).toBe(120)
    expect(
      priceBreakdown(prices, [
        { unitAmountInCents: 220, baseUnitAmountInCents: 250, quantity: 50, ships: true },
      ]),
    ).toEqual({
      unitAmountInCents: 220,
      subtotalInCents: 11_000,
      discountInCents: 1500,
      shippingInCents: 790,
      freeShipping: false,
      taxInCents: 2358,
      totalInCents: 14_148,
    })
  })
})

describe('GET /plans', () => {
  it('lists the six seeded plans with stable ids to a signed-in user (401 otherwise)', async () => {
    expect((await t.get('/api/plans')).status).toBe(401)
    const { cookie } = await t.signIn('plans@example.test')
    const { data } = (await (await t.get('/api/plans', { cookie })).json()) as v.InferOutput<
      typeof PlanListSchema
    >
    expect(
      data.map((plan: Plan) => [
        plan.id,
        plan.name,
        plan.recurringInterval,
        plan.amountInCents,
        plan.quantity,
      ]),
    ).toEqual([
      [PLAN_IDS.essentielMonthly, 'Essentiel', 'month', 1900, 10],
      [PLAN_IDS.essentielYearly, 'Essentiel', 'year', 19_000, 10],
      [PLAN_IDS.proMonthly, 'Pro', 'month', 4900, 50],
      [PLAN_IDS.proYearly, 'Pro', 'year', 49_000, 50],
      [PLAN_IDS.entrepriseMonthly, 'Entreprise', 'month', 9900, 200],
      [PLAN_IDS.entrepriseYearly, 'Entreprise', 'year', 99_000, 200],
    ])
    expect(data.every((plan: Plan) => plan.recurringIntervalCount === 1)).toBe(true)
  })

  it('survives a reset of the test database (plans are reference data)', async () => {
    await t.reset()
    const { cookie } = await t.signIn('plans-again@example.test')
    expect((await (await t.get('/api/plans', { cookie })).json()).data).toHaveLength(6)
  })
})
