import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { ORDER_STATUSES, type OrderStatus } from '../../../contract/commerce.ts'
import { EXPECTED_TRANSITIONS } from '../../../tests/order-transitions.ts'
import { HOUR } from '../../../tests/server/clock.ts'
import { operatorMove } from '../../../tests/server/commerce.ts'
import { makeOrder, organizationWithAdmin } from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { orders } from '../../db/schema.ts'
import { PRODUCTION_ACTIONS } from './actions.ts'
import { allowedNextStatuses, invalidTransition, moveOrder, shipsSomething } from './transitions.ts'

const OPERATOR = 'ops@transitions.example.test'
const t = setupTestApp({ config: { operatorEmails: [OPERATOR] } })

const orderRow = async (id: string) => (await t.db.select().from(orders).where(eq(orders.id, id)))[0]!

/** An order of tags (10) in the given status, or a plan-only one (quantity 0). */
async function orderIn(status: OrderStatus, { planOnly = false } = {}) {
  const { organization } = await organizationWithAdmin(t)
  const order = await makeOrder(t, organization.id, { status })
  if (planOnly) await t.db.update(orders).set({ quantity: 0 }).where(eq(orders.id, order.id))
  return orderRow(order.id)
}

describe('allowedNextStatuses()', () => {
  it.each([
    {
      quantity: 10,
      rule: 'gives an order that ships tags every move of ORDER_TRANSITIONS',
      moves: EXPECTED_TRANSITIONS,
    },
    {
      quantity: 0,
      rule: 'keeps a plan-only order (nothing to ship) out of the production line: it ends at PAID',
      moves: { ...EXPECTED_TRANSITIONS, PAID: [], CONFIRMED: [], PRODUCING: [], SHIPPED: [], DELIVERED: [] },
    },
  ])('$rule', ({ quantity, moves }) => {
    const next = (status: OrderStatus) => allowedNextStatuses({ status, quantity })
    expect(Object.fromEntries(ORDER_STATUSES.map((status) => [status, next(status)]))).toEqual(moves)
  })

  it('says an order ships something when it has at least one tag', () => {
    expect(shipsSomething({ quantity: 1 })).toBe(true)
    expect(shipsSomething({ quantity: 0 })).toBe(false)
  })
})

describe('invalidTransition()', () => {
  it('is a 409 invalid_transition naming the move and the allowed next statuses', () => {
    const error = invalidTransition('PAID', 'SHIPPED', ['CONFIRMED'])
    expect(error).toMatchObject({
      status: 409,
      code: 'invalid_transition',
      message: 'An order PAID cannot become SHIPPED. Allowed next: CONFIRMED.',
      fields: { allowed: ['CONFIRMED'] },
    })
    expect(invalidTransition('CREATED', 'DELIVERED', ['PAID', 'UNPAID', 'EXPIRED']).message).toBe(
      'An order CREATED cannot become DELIVERED. Allowed next: PAID, UNPAID, EXPIRED.',
    )
  })

  it('says "none (final status)" when nothing is allowed, and speaks of no target when there is none', () => {
    expect(invalidTransition('DELIVERED', null, [])).toMatchObject({
      message: 'Not possible for an order DELIVERED. Allowed next: none (final status).',
      fields: { allowed: [] },
    })
  })

  it('takes the caller’s own wording of the refusal before the allowed list', () => {
    expect(invalidTransition('PAID', null, ['CONFIRMED'], 'An order PAID is paid already.').message).toBe(
      'An order PAID is paid already. Allowed next: CONFIRMED.',
    )
  })
})

describe('POST /orders/{id}/<production action>: the refusals', () => {
  /** The operator's move of the order is refused: 409 invalid_transition, in these words, with these moves allowed. */
  async function expectRefused(
    cookie: string,
    orderId: string,
    action: string,
    message: string,
    allowed: OrderStatus[],
  ) {
    const response = await operatorMove(t, cookie, orderId, action)
    expect(response.status).toBe(409)
    expect((await response.json()).error).toEqual({ code: 'invalid_transition', message, allowed })
  }

  it('refuses a paid order moving to shipped: 409 with the moves allowed from paid, the order unchanged', async () => {
    const order = await orderIn('PAID')
    const operator = await t.signIn(OPERATOR)
    await expectRefused(
      operator.cookie,
      order.id,
      'shipments',
      'An order PAID cannot become SHIPPED. Allowed next: CONFIRMED.',
      ['CONFIRMED'],
    )
    expect(await orderRow(order.id)).toEqual(order)
  })

  it('refuses every move of a delivered order: none (final status)', async () => {
    const order = await orderIn('DELIVERED')
    const operator = await t.signIn(OPERATOR)
    for (const [action, to] of Object.entries(PRODUCTION_ACTIONS)) {
      const message = `An order DELIVERED cannot become ${to}. Allowed next: none (final status).`
      await expectRefused(operator.cookie, order.id, action, message, [])
    }
  })

  it('refuses to confirm a paid plan-only order: nothing is allowed after PAID', async () => {
    const order = await orderIn('PAID', { planOnly: true })
    const operator = await t.signIn(OPERATOR)
    const message = 'An order PAID cannot become CONFIRMED. Allowed next: none (final status).'
    await expectRefused(operator.cookie, order.id, 'confirmations', message, [])
  })

  it('answers 404 for an order that does not exist', async () => {
    const operator = await t.signIn(OPERATOR)
    const response = await operatorMove(t, operator.cookie, randomUUID(), 'confirmations')
    expect(response.status).toBe(404)
    expect((await response.json()).error.code).toBe('not_found')
  })
})

describe('moveOrder()', () => {
  it('moves the order, dating the move, and gives the moved row to the effect in the same transaction', async () => {
    const order = await orderIn('PAID')
    t.clock.advance(HOUR)
    const now = t.clock.now()
    let seen: unknown
    const moved = await moveOrder(t.db, { orderId: order.id, to: 'CONFIRMED', now }, async (tx, row) => {
      seen = { row, stored: (await tx.select().from(orders).where(eq(orders.id, order.id)))[0] }
    })
    expect(moved).toEqual({ ...order, status: 'CONFIRMED', updatedAt: now })
    expect(seen).toEqual({ row: moved, stored: moved })
    expect(await orderRow(order.id)).toEqual(moved)
  })

  it('dates the payment (paidAt) on the move to PAID only', async () => {
    const order = await orderIn('CREATED')
    expect(order.paidAt).toBeNull()
    t.clock.advance(HOUR)
    const paidAt = t.clock.now()
    expect(await moveOrder(t.db, { orderId: order.id, to: 'PAID', now: paidAt })).toMatchObject({
      status: 'PAID',
      paidAt,
      updatedAt: paidAt,
    })
    t.clock.advance(HOUR)
    const later = t.clock.now()
    expect(await moveOrder(t.db, { orderId: order.id, to: 'CONFIRMED', now: later })).toMatchObject({
      status: 'CONFIRMED',
      paidAt,
      updatedAt: later,
    })
  })

  it('leaves the order as it was when the effect fails', async () => {
    const order = await orderIn('CREATED')
    await expect(
      moveOrder(t.db, { orderId: order.id, to: 'PAID', now: t.clock.now() }, async () => {
        throw new Error('fulfilment failed')
      }),
    ).rejects.toThrow('fulfilment failed')
    expect(await orderRow(order.id)).toEqual(order)
  })

  it('refuses a move ORDER_TRANSITIONS does not allow, without running the effect', async () => {
    const order = await orderIn('UNPAID')
    let ran = false
    await expect(
      moveOrder(t.db, { orderId: order.id, to: 'CONFIRMED', now: t.clock.now() }, async () => {
        ran = true
      }),
    ).rejects.toMatchObject({
      status: 409,
      code: 'invalid_transition',
      message: 'An order UNPAID cannot become CONFIRMED. Allowed next: PAID, EXPIRED.',
      fields: { allowed: ['PAID', 'EXPIRED'] },
    })
    expect(ran).toBe(false)
    expect(await orderRow(order.id)).toEqual(order)
  })

  it('answers 404 No such order. for an unknown order', async () => {
    await expect(
      moveOrder(t.db, { orderId: randomUUID(), to: 'PAID', now: t.clock.now() }),
    ).rejects.toMatchObject({ status: 404, code: 'not_found', message: 'No such order.' })
  })
})
