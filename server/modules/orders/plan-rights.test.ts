import { and, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import type { Cart } from '../../../contract/commerce.ts'
import { planCartItem } from '../../../contract/commerce.ts'
import { plansOf, tagItem } from '../../../tests/server/commerce.ts'
import { organizationWithAdmin, signedInMember } from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { cartItems } from '../../db/schema.ts'
import { PLAN_IDS } from '../plans/catalog.ts'
import { findActivePlan, planConfiguration } from '../plans/service.ts'

const t = setupTestApp()

const cartOf = async (cookie: string) => (await (await t.get('/api/cart', { cookie })).json()) as Cart

/** A monthly plan line written straight into a member's cart, whatever their role. */
async function putPlanInCart(userId: string, organizationId: string): Promise<void> {
  const plan = (await findActivePlan(t.db, PLAN_IDS.proMonthly))!
  await t.db.insert(cartItems).values({
    userId,
    organizationId,
    productType: 'PLAN',
    productRefId: plan.id,
    quantity: 1,
    configuration: planConfiguration(plan),
    createdAt: t.clock.now(),
  })
}

describe('plans are bought only by those who manage the subscription', () => {
  it.each([['/api/cart/checkout'], ['/api/orders']])(
    'refuses %s with 403 when the cart holds a plan and the caller lacks manage__subscription',
    async (path) => {
      const { organization } = await organizationWithAdmin(t)
      const manager = await signedInMember(t, organization.id, 'MANAGER')
      // A plan line left from before (say, a demotion that did not clean up): the cart still holds it.
      await putPlanInCart(manager.id, organization.id)
      expect((await t.post('/api/cart/items', { cookie: manager.cookie, json: tagItem(10) })).status).toBe(
        201,
      )
      const refused = await t.post(path, { cookie: manager.cookie, json: {} })
      expect(refused.status).toBe(403)
      expect((await cartOf(manager.cookie)).itemCount, 'the cart is left as it was').toBe(2)
    },
  )

  it('takes the plan out of a member’s cart when their new role lacks manage__subscription', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const other = await signedInMember(t, organization.id, 'ADMIN')
    const plans = await plansOf(t, other.cookie)
    const plan = planCartItem(plans.find((p) => p.id === PLAN_IDS.proMonthly)!)
    for (const item of [plan, tagItem(10)]) {
      expect((await t.post('/api/cart/items', { cookie: other.cookie, json: item })).status).toBe(201)
    }
    const demoted = await t.patch(`/api/users/${other.id}`, {
      cookie: admin.cookie,
      json: { role: 'MANAGER' },
    })
    expect(demoted.status).toBe(200)
    const cart = await cartOf(other.cookie)
    expect(cart.items.map((item) => item.productType)).toEqual(['TAG'])
    const order = await t.post('/api/cart/checkout', { cookie: other.cookie, json: {} })
    expect(order.status).toBe(201)
  })

  it('keeps the plan when the new role may still manage the subscription', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const other = await signedInMember(t, organization.id, 'MANAGER')
    await putPlanInCart(other.id, organization.id)
    const promoted = await t.patch(`/api/users/${other.id}`, {
      cookie: admin.cookie,
      json: { role: 'ADMIN' },
    })
    expect(promoted.status).toBe(200)
    const rows = await t.db
      .select()
      .from(cartItems)
      .where(and(eq(cartItems.userId, other.id), eq(cartItems.productType, 'PLAN')))
    expect(rows).toHaveLength(1)
  })
})
