import { describe, expect, it } from 'vitest'
import type { Order } from '../../../contract/commerce.ts'
import { planCartItem } from '../../../contract/commerce.ts'
import { placeOrder, plansOf, tagItem } from '../../../tests/server/commerce.ts'
import { makeOrder, organizationWithAdmin, signedInMember } from '../../../tests/server/fixtures.ts'
import { setupTestApp, uniqueEmail } from '../../../tests/server/harness.ts'
import { PLAN_IDS } from '../plans/catalog.ts'

const OPERATOR = 'ops@orders.example.test'
const t = setupTestApp({ config: { operatorEmails: [OPERATOR] } })

const ADDRESS = { line1: '5 quai Ouest', line2: '', city: 'Lyon', postalCode: '69002', country: 'FR' }

describe('checkout', () => {
  it('makes a CREATED order of the cart with the amounts recomputed, and empties the cart', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const order = await placeOrder(t, admin.cookie, [tagItem(100), tagItem(20, { alphaCode: 'BUR' })])
    expect(order).toMatchObject({
      status: 'CREATED',
      organization: { id: organization.id, name: 'Acme' },
      quantity: 120,
      totals: {
        subtotalInCents: 100 * 190 + 20 * 250,
        discountInCents: 100 * 60,
        shippingInCents: 0,
        freeShipping: true,
        taxInCents: Math.round((100 * 190 + 20 * 250) * 0.2),
        totalInCents: Math.round((100 * 190 + 20 * 250) * 1.2),
      },
      shippingAddress: { line1: '1 rue de la Paix', city: 'Paris', postalCode: '75002', country: 'FR' },
      actions: ['sessions'],
    })
    expect(order.reference).toMatch(/^TR-2030-\d{6}$/)
    expect(order.lines.map((line) => [line.quantity, line.unitAmountInCents, line.lineTotalInCents])).toEqual(
      [
        [100, 190, 19_000],
        [20, 250, 5000],
      ],
    )
    const cart = await (await t.get('/api/cart', { cookie: admin.cookie })).json()
    expect(cart.items).toEqual([])
    const again = await t.post('/api/cart/checkout', { cookie: admin.cookie, json: {} })
    expect(again.status).toBe(409)
    expect((await again.json()).error.code).toBe('cart_empty')
  })

  it('ships to the address given, else the first tag line’s, else the organization’s', async () => {
    const { admin } = await organizationWithAdmin(t)
    await t.post('/api/cart/items', { cookie: admin.cookie, json: tagItem(10) })
    const given = await t.post('/api/orders', { cookie: admin.cookie, json: { shippingAddress: ADDRESS } })
    expect(given.status).toBe(201)
    expect(((await given.json()) as Order).shippingAddress).toEqual(ADDRESS)
    const fromLine = await placeOrder(t, admin.cookie, [tagItem(10, { shippingAddress: ADDRESS })])
    expect(fromLine.shippingAddress).toEqual(ADDRESS)
  })

  it('orders a plan alone without shipping nor address', async () => {
    const { admin } = await organizationWithAdmin(t)
    const plan = (await plansOf(t, admin.cookie)).find((each) => each.id === PLAN_IDS.proYearly)!
    const order = await placeOrder(t, admin.cookie, [planCartItem(plan)])
    expect(order).toMatchObject({
      quantity: 0,
      shippingAddress: null,
      totals: { subtotalInCents: 49_000, shippingInCents: 0, freeShipping: false, taxInCents: 9800 },
    })
    expect(order.lines[0]).toMatchObject({ productType: 'PLAN', productRefId: PLAN_IDS.proYearly })
  })

  it('lets only one of two concurrent checkouts of one cart make an order', async () => {
    const { admin } = await organizationWithAdmin(t)
    await t.post('/api/cart/items', { cookie: admin.cookie, json: tagItem(10) })
    const answers = await Promise.all([
      t.post('/api/cart/checkout', { cookie: admin.cookie, json: {} }),
      t.post('/api/orders', { cookie: admin.cookie, json: {} }),
    ])
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409])
  })

  it('is refused to roles without create__order and to a bad body', async () => {
    const { organization } = await organizationWithAdmin(t)
    const member = await signedInMember(t, organization.id, 'MEMBER')
    expect((await t.post('/api/cart/checkout', { cookie: member.cookie, json: {} })).status).toBe(403)
    const manager = await signedInMember(t, organization.id, 'MANAGER')
    const bad = await t.post('/api/orders', {
      cookie: manager.cookie,
      json: { shippingAddress: { city: 'X' } },
    })
    expect(bad.status).toBe(400)
  })
})

describe('order lists', () => {
  it('shows members their selected organization’s orders, operators everyone’s, newest first', async () => {
    const mine = await organizationWithAdmin(t, 'Mine')
    const other = await organizationWithAdmin(t, 'Other')
    const first = await placeOrder(t, mine.admin.cookie)
    t.clock.advance(1000)
    const second = await placeOrder(t, mine.admin.cookie)
    const foreign = await placeOrder(t, other.admin.cookie)

    const list = await (await t.get('/api/orders', { cookie: mine.admin.cookie })).json()
    expect(list.data.map((order: Order) => order.id)).toEqual([second.id, first.id])
    const byPath = await (
      await t.get(`/api/organizations/${mine.organization.id}/orders`, { cookie: mine.admin.cookie })
    ).json()
    expect(byPath.data.map((order: Order) => order.id)).toEqual([second.id, first.id])
    expect((await t.get(`/api/orders/${foreign.id}`, { cookie: mine.admin.cookie })).status).toBe(404)
    expect(
      (await t.get(`/api/organizations/${other.organization.id}/orders`, { cookie: mine.admin.cookie }))
        .status,
    ).toBe(404)

    const operator = await t.signIn(OPERATOR)
    const all = await (await t.get('/api/orders?limit=100', { cookie: operator.cookie })).json()
    const ids = all.data.map((order: Order) => order.id)
    expect(ids).toEqual(expect.arrayContaining([first.id, second.id, foreign.id]))
    const seen = await (await t.get(`/api/orders/${foreign.id}`, { cookie: operator.cookie })).json()
    expect(seen.organization.name).toBe('Other')
    expect(seen.actions).toEqual([])
  })

  it('pages by cursor and filters by status', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const made = []
    for (let index = 0; index < 5; index += 1) {
      made.push(await makeOrder(t, organization.id, { status: index % 2 === 0 ? 'PAID' : 'CREATED' }))
      t.clock.advance(1000)
    }
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''
      const page = await (await t.get(`/api/orders?limit=2${query}`, { cookie: admin.cookie })).json()
      seen.push(...page.data.map((order: Order) => order.id))
      cursor = page.nextCursor
    } while (cursor)
    expect(seen).toEqual(made.map((order) => order.id).reverse())
    const paid = await (await t.get('/api/orders?status=PAID', { cookie: admin.cookie })).json()
    expect(paid.data).toHaveLength(3)
    expect((await t.get('/api/orders?status=LOST', { cookie: admin.cookie })).status).toBe(400)
    expect((await t.get('/api/orders?cursor=nonsense', { cookie: admin.cookie })).status).toBe(400)
  })

  it('is closed to roles without read__order, and open to an operator with no organization', async () => {
    const { organization } = await organizationWithAdmin(t)
    const member = await signedInMember(t, organization.id, 'MEMBER')
    expect((await t.get('/api/orders', { cookie: member.cookie })).status).toBe(403)
    const outsider = await t.signIn(uniqueEmail())
    expect((await t.get('/api/orders', { cookie: outsider.cookie })).status).toBe(400)
    const operator = await t.signIn(OPERATOR)
    expect((await t.get('/api/orders', { cookie: operator.cookie })).status).toBe(200)
  })
})

describe('order actions', () => {
  it('follow the status and the caller', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const manager = await signedInMember(t, organization.id, 'MANAGER')
    const operator = await t.signIn(OPERATOR)
    const cases: Array<[Parameters<typeof makeOrder>[2], string[], string[]]> = [
      [{ status: 'CREATED' }, ['sessions'], []],
      [{ status: 'CREATED', session: true }, ['sessions', 'checks'], ['checks']],
      [{ status: 'EXPIRED', session: true }, ['sessions', 'checks'], ['checks']],
      [{ status: 'UNPAID', session: true }, ['sessions', 'checks'], ['checks']],
      [{ status: 'PAID' }, ['tags-exports'], ['confirmations', 'tags-exports']],
      [{ status: 'CONFIRMED' }, ['tags-exports'], ['productions', 'tags-exports']],
      [{ status: 'PRODUCING' }, ['tags-exports'], ['shipments', 'tags-exports']],
      [{ status: 'SHIPPED' }, ['tags-exports'], ['deliveries', 'tags-exports']],
      [{ status: 'DELIVERED' }, ['tags-exports'], ['tags-exports']],
    ]
    for (const [options, forMembers, forOperator] of cases) {
      const order = await makeOrder(t, organization.id, options)
      for (const cookie of [admin.cookie, manager.cookie]) {
        const seen = await (await t.get(`/api/orders/${order.id}`, { cookie })).json()
        expect(seen.actions, JSON.stringify(options)).toEqual(forMembers)
      }
      const seen = await (await t.get(`/api/orders/${order.id}`, { cookie: operator.cookie })).json()
      expect(seen.actions, `operator ${JSON.stringify(options)}`).toEqual(forOperator)
    }
  })
})
