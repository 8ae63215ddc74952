import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { placeOrder, settleLocally, tagItem } from '../../../tests/server/commerce.ts'
import {
  addMember,
  createOrganization,
  organizationWithAdmin,
  signedInMember,
} from '../../../tests/server/fixtures.ts'
import { setupTestApp, type TestApp } from '../../../tests/server/harness.ts'
import { localPaymentSessions, orders } from '../../db/schema.ts'
import { applySessionStatus } from './payment.ts'

const OPERATOR = 'ops@payment.example.test'
const t = setupTestApp({ config: { operatorEmails: [OPERATOR] } })

const openSession = (app: TestApp, cookie: string, orderId: string) =>
  app.post(`/api/orders/${orderId}/sessions`, { cookie, json: {} })

const press = (app: TestApp, url: string, outcome: 'pay' | 'fail' | 'cancel') =>
  app.post(`${new URL(url).pathname}/${outcome}`, {
    body: '',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  })

const statusOf = async (orderId: string) =>
  (await t.db.select({ status: orders.status }).from(orders).where(eq(orders.id, orderId)))[0]!.status

describe('payment sessions', () => {
  it('gives an EXPIRED order’s open session back instead of opening a second payable one', async () => {
    const { admin } = await organizationWithAdmin(t)
    const order = await placeOrder(t, admin.cookie, [tagItem(10)])
    const first = await (await openSession(t, admin.cookie, order.id)).json()
    expect((await press(t, first.url, 'cancel')).status).toBe(303)
    expect(await statusOf(order.id)).toBe('EXPIRED')

    const second = await openSession(t, admin.cookie, order.id)
    expect(second.status).toBe(201)
    const { url } = await second.json()
    expect(url).not.toBe(first.url)
    const again = await openSession(t, admin.cookie, order.id)
    expect(again.status).toBe(201)
    expect((await again.json()).url).toBe(url)
    expect(
      (await t.db.select().from(localPaymentSessions).where(eq(localPaymentSessions.orderId, order.id)))
        .length,
    ).toBe(2)

    // The cancelled session cannot be paid anymore; the current one can.
    await press(t, first.url, 'pay')
    expect(await statusOf(order.id)).toBe('EXPIRED')
    await press(t, url, 'pay')
    expect(await statusOf(order.id)).toBe('PAID')
  })

  it('reuses an UNPAID order’s open session too', async () => {
    const { admin } = await organizationWithAdmin(t)
    const order = await placeOrder(t, admin.cookie, [tagItem(10)])
    await settleLocally(t, admin.cookie, order.id, 'fail')
    expect(await statusOf(order.id)).toBe('UNPAID')
    const { url } = await (await openSession(t, admin.cookie, order.id)).json()
    expect((await (await openSession(t, admin.cookie, order.id)).json()).url).toBe(url)
  })

  it('expires the previous session with its provider when it is still open but not reusable', async () => {
    const { admin } = await organizationWithAdmin(t)
    const order = await placeOrder(t, admin.cookie, [tagItem(10)])
    const first = await (await openSession(t, admin.cookie, order.id)).json()
    await t.db.update(orders).set({ paymentSessionUrl: null }).where(eq(orders.id, order.id))
    const second = await (await openSession(t, admin.cookie, order.id)).json()
    expect(second.url).not.toBe(first.url)
    const sessionId = new URL(first.url).pathname.split('/').at(-1)!
    const [old] = await t.db.select().from(localPaymentSessions).where(eq(localPaymentSessions.id, sessionId))
    expect(old!.status).toBe('expired')
    await press(t, first.url, 'pay')
    expect(await statusOf(order.id)).toBe('CREATED')
  })

  it('logs a warning (ids only) when another session of an order already paid is paid', async () => {
    const { admin } = await organizationWithAdmin(t)
    const order = await placeOrder(t, admin.cookie, [tagItem(10)])
    await settleLocally(t, admin.cookie, order.id, 'pay')
    const warnings: unknown[] = []
    const moved = await applySessionStatus(t.db, {
      orderId: order.id,
      sessionId: 'another-session',
      status: 'paid',
      now: t.clock.now(),
      logger: { warn: (...args: unknown[]) => warnings.push(args) },
    })
    expect(moved).toBe(false)
    expect(warnings).toHaveLength(1)
    expect(JSON.stringify(warnings[0])).toContain(order.id)
    expect(JSON.stringify(warnings[0])).toContain('another-session')
  })

  it('lets only members of the order’s organization open a session, never an operator elsewhere', async () => {
    const { admin } = await organizationWithAdmin(t)
    const order = await placeOrder(t, admin.cookie, [tagItem(10)])
    const elsewhere = await createOrganization(t, 'Ops Inc')
    const operator = await t.signIn(OPERATOR)
    await addMember(t, { userId: operator.profile.id, organizationId: elsewhere.id, role: 'ADMIN' })
    expect((await openSession(t, operator.cookie, order.id)).status).toBe(404)
    // The operator still sees the order and may check it.
    expect((await t.get(`/api/orders/${order.id}`, { cookie: operator.cookie })).status).toBe(200)
    const member = await signedInMember(t, order.organization.id, 'ADMIN')
    expect((await openSession(t, member.cookie, order.id)).status).toBe(201)
  })
})
