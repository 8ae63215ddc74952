import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import type { Cart } from '../../../contract/commerce.ts'
import { planCartItem } from '../../../contract/commerce.ts'
import { priceBreakdown } from '../../../contract/pricing.ts'
import { plansOf, tagItem } from '../../../tests/server/commerce.ts'
import { addMember, organizationWithAdmin, signedInMember } from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { plans as plansTable } from '../../db/schema.ts'
import { PLAN_IDS } from '../plans/catalog.ts'
import { PRICES } from '../prices/prices.ts'

const t = setupTestApp()

const cartOf = async (cookie: string) => (await (await t.get('/api/cart', { cookie })).json()) as Cart

describe('the cart', () => {
  it('fails every call with "No organization selected" without a selected organization', async () => {
    const { cookie } = await t.signIn('nobody-selected@example.test')
    for (const [method, path, json] of [
      ['GET', '/api/cart', undefined],
      ['POST', '/api/cart/items', tagItem()],
      ['DELETE', '/api/cart', undefined],
      ['DELETE', '/api/cart/items/00000000-0000-4000-8000-000000000000', undefined],
      ['POST', '/api/cart/checkout', {}],
    ] as const) {
      const response = await t.request(path, { method, cookie, json })
      expect(response.status, `${method} ${path}`).toBe(400)
      expect(await response.json()).toEqual({
        error: { code: 'no_organization_selected', message: 'No organization selected' },
      })
    }
  })

  it('prices tag lines on the server, with totals from the contract’s priceBreakdown', async () => {
    const { admin } = await organizationWithAdmin(t)
    const added = await t.post('/api/cart/items', { cookie: admin.cookie, json: tagItem(100) })
    expect(added.status).toBe(201)
    const cart = (await added.json()) as Cart
    expect(cart.items).toHaveLength(1)
    expect(cart.items[0]).toMatchObject({ productType: 'TAG', quantity: 100, unitAmountInCents: 190 })
    expect(cart.items[0]!.lineTotalInCents).toBe(19_000)
    const { unitAmountInCents: _, ...expected } = priceBreakdown(PRICES, [
      { unitAmountInCents: 190, baseUnitAmountInCents: 250, quantity: 100, ships: true },
    ])
    expect(cart.totals).toEqual(expected)
    expect(cart.totals).toMatchObject({ discountInCents: 6000, shippingInCents: 0, freeShipping: true })
    expect(await cartOf(admin.cookie)).toEqual(cart)
  })

  it('refuses a unit amount other than the server’s (409 price_mismatch) and adds nothing', async () => {
    const { admin } = await organizationWithAdmin(t)
    const response = await t.post('/api/cart/items', {
      cookie: admin.cookie,
      json: { ...tagItem(100), unitAmountInCents: 1 },
    })
    expect(response.status).toBe(409)
    expect((await response.json()).error).toMatchObject({
      code: 'price_mismatch',
      expectedUnitAmountInCents: 190,
    })
    const plans = await plansOf(t, admin.cookie)
    const cheap = { ...planCartItem(plans[0]!), unitAmountInCents: 100 }
    const plan = await t.post('/api/cart/items', { cookie: admin.cookie, json: cheap })
    expect(plan.status).toBe(409)
    expect((await plan.json()).error.code).toBe('price_mismatch')
    expect((await cartOf(admin.cookie)).items).toEqual([])
  })

  it.each([
    ['a quantity below the minimum', tagItem(5), 'At least 10 tags per order.'],
    ['a quantity above the maximum', tagItem(5001), 'At most 5000 tags per order.'],
    [
      'colours a scanner cannot read',
      tagItem(100, { foregroundColor: '#ffffff', backgroundColor: '#000000' }),
      'Scanners cannot read this QR code',
    ],
    ['an alpha code of digits', tagItem(100, { alphaCode: '12' }), 'The alpha code must be 2 to 4 letters.'],
    ['numbers past 99999', tagItem(100, { startNumber: 99_950 }), 'Tag numbers stop at 99999'],
    ['another product', { ...tagItem(100), productRefId: 'tag-gold' }, 'No such product.'],
  ])('refuses %s with a 400 that says why', async (_what, item, message) => {
    const { admin } = await organizationWithAdmin(t)
    const response = await t.post('/api/cart/items', { cookie: admin.cookie, json: item })
    expect(response.status).toBe(400)
    const body = await response.json()
    expect(body.error.code).toBe('validation_failed')
    expect(body.error.message).toContain(message)
  })

  it('keeps one plan per cart, before the tags; only an ADMIN may choose one', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const plans = await plansOf(t, admin.cookie)
    const monthly = plans.find((plan) => plan.id === PLAN_IDS.proMonthly)!
    const yearly = plans.find((plan) => plan.id === PLAN_IDS.essentielYearly)!
    await t.post('/api/cart/items', { cookie: admin.cookie, json: tagItem(50) })
    expect(
      (await t.post('/api/cart/items', { cookie: admin.cookie, json: planCartItem(monthly) })).status,
    ).toBe(201)
    const replaced = await t.post('/api/cart/items', { cookie: admin.cookie, json: planCartItem(yearly) })
    const cart = (await replaced.json()) as Cart
    expect(cart.items.map((item) => [item.productType, item.productRefId])).toEqual([
      ['PLAN', PLAN_IDS.essentielYearly],
      ['TAG', 'tag-standard'],
    ])
    expect(cart.totals.subtotalInCents).toBe(19_000 + 50 * 220)

    const manager = await signedInMember(t, organization.id, 'MANAGER')
    const refused = await t.post('/api/cart/items', { cookie: manager.cookie, json: planCartItem(monthly) })
    expect(refused.status).toBe(403)
    expect((await t.post('/api/cart/items', { cookie: manager.cookie, json: tagItem() })).status).toBe(201)
  })

  it('refuses an unknown plan (404) and a configuration that does not match the plan (400)', async () => {
    const { admin } = await organizationWithAdmin(t)
    const plans = await plansOf(t, admin.cookie)
    const item = planCartItem(plans[0]!)
    const unknown = { ...item, productRefId: '00000000-0000-4000-8000-000000000000' }
    expect((await t.post('/api/cart/items', { cookie: admin.cookie, json: unknown })).status).toBe(404)
    const wrong = { ...item, configuration: { ...item.configuration, quantity: 9999 } }
    const response = await t.post('/api/cart/items', { cookie: admin.cookie, json: wrong })
    expect(response.status).toBe(400)
    expect((await response.json()).error.issues[0].path).toBe('configuration.quantity')
  })

  it('removes a line (404 for another user’s) and empties the whole cart', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const manager = await signedInMember(t, organization.id, 'MANAGER')
    await t.post('/api/cart/items', { cookie: admin.cookie, json: tagItem(10) })
    const cart = (await (
      await t.post('/api/cart/items', { cookie: admin.cookie, json: tagItem(20) })
    ).json()) as Cart
    const [first, second] = cart.items
    const path = `/api/cart/items/${first!.id}`
    expect((await t.delete(path, { cookie: manager.cookie })).status).toBe(404)
    expect((await t.delete(path, { cookie: admin.cookie })).status).toBe(204)
    expect((await t.delete(path, { cookie: admin.cookie })).status).toBe(404)
    expect((await cartOf(admin.cookie)).items.map((item) => item.id)).toEqual([second!.id])
    expect((await t.delete('/api/cart', { cookie: admin.cookie })).status).toBe(204)
    expect(await cartOf(admin.cookie)).toMatchObject({ items: [], itemCount: 0 })
  })

  it('belongs to the (user, organization) pair: switching keeps it, being disabled there clears it', async () => {
    const first = await organizationWithAdmin(t, 'First')
    const second = await organizationWithAdmin(t, 'Second')
    const manager = await signedInMember(t, first.organization.id, 'MANAGER')
    await addMember(t, { userId: manager.id, organizationId: second.organization.id, role: 'MANAGER' })
    await t.post('/api/cart/items', { cookie: manager.cookie, json: tagItem(30) })
    expect((await cartOf(manager.cookie)).organizationId).toBe(second.organization.id)

    await t.patch('/api/organizations/default', {
      cookie: manager.cookie,
      json: { id: first.organization.id },
    })
    await t.post('/api/cart/items', { cookie: manager.cookie, json: tagItem(40) })
    await t.patch('/api/organizations/default', {
      cookie: manager.cookie,
      json: { id: second.organization.id },
    })
    expect((await cartOf(manager.cookie)).items.map((item) => item.quantity)).toEqual([30])

    const disabled = await t.patch(`/api/users/${manager.id}`, {
      cookie: first.admin.cookie,
      json: { status: 'DISABLED' },
    })
    expect(disabled.status).toBe(200)
    await t.patch('/api/organizations/default', {
      cookie: manager.cookie,
      json: { id: second.organization.id },
    })
    expect((await cartOf(manager.cookie)).items.map((item) => item.quantity)).toEqual([30])
    await t.patch(`/api/users/${manager.id}`, { cookie: first.admin.cookie, json: { status: 'ACTIVE' } })
    await t.patch('/api/organizations/default', {
      cookie: manager.cookie,
      json: { id: first.organization.id },
    })
    expect((await cartOf(manager.cookie)).items).toEqual([])
  })

  it('drops a plan no longer offered from the cart', async () => {
    const { admin } = await organizationWithAdmin(t)
    const plans = await plansOf(t, admin.cookie)
    await t.post('/api/cart/items', { cookie: admin.cookie, json: planCartItem(plans[0]!) })
    await t.post('/api/cart/items', { cookie: admin.cookie, json: tagItem(10) })
    await t.db.update(plansTable).set({ active: false }).where(eq(plansTable.id, plans[0]!.id))
    try {
      const cart = await cartOf(admin.cookie)
      expect(cart.items.map((item) => item.productType)).toEqual(['TAG'])
      expect((await t.get('/api/plans', { cookie: admin.cookie }).then((r) => r.json())).data).toHaveLength(5)
    } finally {
      await t.db.update(plansTable).set({ active: true }).where(eq(plansTable.id, plans[0]!.id))
    }
  })

  it('holds 20 lines at most', async () => {
    const { admin } = await organizationWithAdmin(t)
    for (let index = 0; index < 20; index += 1) {
      expect((await t.post('/api/cart/items', { cookie: admin.cookie, json: tagItem(10) })).status).toBe(201)
    }
    const full = await t.post('/api/cart/items', { cookie: admin.cookie, json: tagItem(10) })
    expect(full.status).toBe(409)
  })
})
