import { and, count, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import {
  ORDER_STATUSES,
  type OrderDetails,
  type OrderStatus,
  planCartItem,
} from '../../../contract/commerce.ts'
import { EXPECTED_TRANSITIONS } from '../../../tests/order-transitions.ts'
import { DAY } from '../../../tests/server/clock.ts'
import { operatorMove, placeOrder, plansOf, settleLocally, tagItem } from '../../../tests/server/commerce.ts'
import { makeOrder, makeTags, organizationWithAdmin } from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { tags } from '../../db/schema.ts'
import { PLAN_IDS } from '../plans/catalog.ts'
import { PRODUCTION_ACTIONS } from './actions.ts'

const OPERATOR = 'ops@lifecycle.example.test'
const t = setupTestApp({ config: { operatorEmails: [OPERATOR] } })

const details = async (cookie: string, id: string) =>
  (await (await t.get(`/api/orders/${id}/details`, { cookie })).json()) as OrderDetails

describe('the order life cycle', () => {
  it('goes CREATED → PAID (sandbox) → CONFIRMED → PRODUCING → SHIPPED → DELIVERED, tags made once paid', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const operator = await t.signIn(OPERATOR)
    const order = await placeOrder(t, admin.cookie, [tagItem(100, { alphaCode: 'LYC', startNumber: 42 })])
    expect((await details(admin.cookie, order.id)).tags).toEqual([])

    const redirect = await settleLocally(t, admin.cookie, order.id, 'pay')
    expect(redirect.status).toBe(303)
    expect(redirect.headers.get('location')).toBe(
      `http://localhost:3000/app/order-result/success?order=${order.id}`,
    )
    const paid = await details(admin.cookie, order.id)
    expect(paid.order.status).toBe('PAID')
    expect(paid.tags).toHaveLength(100)
    expect(paid.tags[0]).toMatchObject({
      code: 'LYC-00042',
      name: 'Agence',
      foregroundColor: '#111111',
      backgroundColor: '#ffffff',
    })
    expect(paid.tags.at(-1)!.code).toBe('LYC-00141')
    expect(paid.tags[0]!.url).toBe(`http://localhost:3000/tags/${paid.tags[0]!.publicId}`)
    const listed = await (await t.get('/api/tags?q=LYC&limit=100', { cookie: admin.cookie })).json()
    expect(listed.data).toHaveLength(100)

    for (const [action, status] of Object.entries(PRODUCTION_ACTIONS)) {
      expect((await operatorMove(t, admin.cookie, order.id, action)).status, 'members cannot').toBe(403)
      const moved = await operatorMove(t, operator.cookie, order.id, action)
      expect(moved.status).toBe(200)
      expect((await moved.json()).status).toBe(status)
    }
    const [row] = await t.db.select({ n: count() }).from(tags).where(eq(tags.organizationId, organization.id))
    expect(row!.n).toBe(100)
  })

  it.each(ORDER_STATUSES.map((status) => [status]))(
    'answers every operator move from %s as ORDER_TRANSITIONS says (409 lists the allowed next statuses)',
    async (from) => {
      const { organization } = await organizationWithAdmin(t)
      const operator = await t.signIn(OPERATOR)
      for (const [action, to] of Object.entries(PRODUCTION_ACTIONS)) {
        const order = await makeOrder(t, organization.id, { status: from as OrderStatus })
        const response = await operatorMove(t, operator.cookie, order.id, action)
        const allowed = EXPECTED_TRANSITIONS
        if (allowed[from as OrderStatus].includes(to)) {
          expect(response.status, `${from} → ${to}`).toBe(200)
        } else {
          expect(response.status, `${from} → ${to}`).toBe(409)
          const { error } = await response.json()
          expect(error.code).toBe('invalid_transition')
          expect(error.allowed).toEqual(allowed[from as OrderStatus])
          expect(error.message).toContain(
            `Allowed next: ${allowed[from as OrderStatus].join(', ') || 'none'}`,
          )
        }
      }
    },
  )

  it('lets only one of two concurrent moves apply', async () => {
    const { organization } = await organizationWithAdmin(t)
    const operator = await t.signIn(OPERATOR)
    const order = await makeOrder(t, organization.id, { status: 'PAID' })
    const answers = await Promise.all([
      operatorMove(t, operator.cookie, order.id, 'confirmations'),
      operatorMove(t, operator.cookie, order.id, 'confirmations'),
    ])
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409])
    const refused = await answers.find((answer) => answer.status === 409)!.json()
    expect(refused.error.allowed).toEqual(['PRODUCING'])
  })

  it('pays an order once when the sandbox and a check race, and makes its tags once', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const order = await placeOrder(t, admin.cookie, [tagItem(10, { alphaCode: 'RAC' })])
    const session = await (
      await t.post(`/api/orders/${order.id}/sessions`, { cookie: admin.cookie, json: {} })
    ).json()
    const path = new URL(session.url).pathname
    const answers = await Promise.all([
      t.post(`${path}/pay`, { body: '', headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
      t.post(`/api/orders/${order.id}/checks`, { cookie: admin.cookie, json: {} }),
      t.post(`/api/orders/${order.id}/checks`, { cookie: admin.cookie, json: {} }),
    ])
    expect(answers.map((answer) => answer.status)).toEqual([303, 200, 200])
    const [row] = await t.db
      .select({ n: count() })
      .from(tags)
      .where(and(eq(tags.organizationId, organization.id), eq(tags.alphaCode, 'RAC')))
    expect(row!.n).toBe(10)
    expect((await details(admin.cookie, order.id)).order.status).toBe('PAID')
  })

  it('continues the numbering after the highest existing number when the range is taken', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    await makeTags(t, organization.id, 30, 'NUM') // NUM-0000x…: numbers from the fixture's counter
    const existing = await t.db.select({ number: tags.number }).from(tags).where(eq(tags.alphaCode, 'NUM'))
    const highest = Math.max(...existing.map((row) => row.number))
    const lowest = Math.min(...existing.map((row) => row.number))
    const order = await placeOrder(t, admin.cookie, [
      tagItem(10, { alphaCode: 'NUM', startNumber: lowest }),
      tagItem(10, { alphaCode: 'NUM', startNumber: highest + 100 }),
    ])
    await settleLocally(t, admin.cookie, order.id)
    const codes = (await details(admin.cookie, order.id)).tags.map((tag) => tag.code)
    const number = (n: number) => `NUM-${String(n).padStart(5, '0')}`
    expect(codes).toEqual([
      ...Array.from({ length: 10 }, (_, index) => number(highest + 1 + index)),
      ...Array.from({ length: 10 }, (_, index) => number(highest + 100 + index)),
    ])
  })

  it('ends a plan-only order at PAID, with the organization’s subscription started', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const operator = await t.signIn(OPERATOR)
    const plans = await plansOf(t, admin.cookie)
    const order = await placeOrder(t, admin.cookie, [
      planCartItem(plans.find((p) => p.id === PLAN_IDS.proMonthly)!),
    ])
    await settleLocally(t, admin.cookie, order.id)
    const seen = await (await t.get(`/api/orders/${order.id}`, { cookie: operator.cookie })).json()
    expect(seen).toMatchObject({ status: 'PAID', actions: [] })
    const refused = await operatorMove(t, operator.cookie, order.id, 'confirmations')
    expect(refused.status).toBe(409)
    expect((await refused.json()).error.allowed).toEqual([])
    const { subscription } = await (
      await t.get(`/api/organizations/${organization.id}/subscription`, { cookie: admin.cookie })
    ).json()
    expect(subscription).toMatchObject({
      planId: PLAN_IDS.proMonthly,
      planName: 'Pro',
      billingCycle: 'MONTHLY',
      status: 'ACTIVE',
      transfersPerMonth: 50,
      transfersUsedThisMonth: 0,
      currentPeriodStart: '2030-01-15T09:00:00.000Z',
    })
    expect(subscription.currentPeriodEnd).toBe('2030-02-15T09:00:00.000Z')
  })

  it('replaces the subscription when another plan is paid, the period starting then', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const plans = await plansOf(t, admin.cookie)
    const pick = (id: string) => planCartItem(plans.find((plan) => plan.id === id)!)
    await settleLocally(
      t,
      admin.cookie,
      (await placeOrder(t, admin.cookie, [pick(PLAN_IDS.essentielMonthly)])).id,
    )
    t.clock.advance(5 * DAY)
    const yearly = await placeOrder(t, admin.cookie, [pick(PLAN_IDS.entrepriseYearly), tagItem(10)])
    await settleLocally(t, admin.cookie, yearly.id)
    const { subscription } = await (
      await t.get(`/api/organizations/${organization.id}/subscription`, { cookie: admin.cookie })
    ).json()
    const start = t.clock.now()
    const end = new Date(start)
    end.setUTCFullYear(end.getUTCFullYear() + 1)
    expect(subscription).toMatchObject({
      planId: PLAN_IDS.entrepriseYearly,
      billingCycle: 'YEARLY',
      transfersPerMonth: 200,
      currentPeriodStart: start.toISOString(),
      currentPeriodEnd: end.toISOString(),
    })
  })
})
