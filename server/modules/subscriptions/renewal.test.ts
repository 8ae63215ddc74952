import { describe, expect, it } from 'vitest'
import type { Subscription } from '../../../contract/commerce.ts'
import { planCartItem } from '../../../contract/commerce.ts'
import { DAY } from '../../../tests/server/clock.ts'
import { placeOrder, plansOf, settleLocally } from '../../../tests/server/commerce.ts'
import { organizationWithAdmin } from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { subscriptions } from '../../db/schema.ts'
import { addMonthsIn } from '../../shared/time-zones.ts'
import { PLAN_IDS } from '../plans/catalog.ts'

const t = setupTestApp()
const PARIS = 'Europe/Paris'

async function buyer() {
  const { organization, admin } = await organizationWithAdmin(t)
  const plans = await plansOf(t, admin.cookie)
  const item = (id: string) => planCartItem(plans.find((plan) => plan.id === id)!)
  const order = (id: string) => placeOrder(t, admin.cookie, [item(id)])
  const pay = (orderId: string) => settleLocally(t, admin.cookie, orderId)
  const subscription = async () =>
    (
      (await (
        await t.get(`/api/organizations/${organization.id}/subscription`, { cookie: admin.cookie })
      ).json()) as { subscription: Subscription }
    ).subscription
  return { order, pay, subscription }
}

describe('subscription periods on the Paris calendar', () => {
  it.each([
    // 1 Mar 2026 00:30 Paris (UTC+1) → 1 Apr 2026 00:30 Paris (UTC+2, summer time).
    ['2026-02-28T23:30:00.000Z', 1, '2026-03-31T22:30:00.000Z'],
    // 1 Mar 2027 00:30 Paris → 1 Mar 2028 00:30 Paris (2028 is a leap year: not 29 Feb).
    ['2027-02-28T23:30:00.000Z', 12, '2028-02-29T23:30:00.000Z'],
    // 31 Jan → 28 Feb, or 29 Feb in a leap year.
    ['2026-01-31T09:00:00.000Z', 1, '2026-02-28T09:00:00.000Z'],
    ['2028-01-31T09:00:00.000Z', 1, '2028-02-29T09:00:00.000Z'],
    // 31 Jan 2026 00:30 Paris is still 30 Jan in UTC.
    ['2026-01-30T23:30:00.000Z', 1, '2026-02-27T23:30:00.000Z'],
    // 15 Oct 2026 12:00 Paris (UTC+2) + 1 month → 15 Nov 12:00 Paris (UTC+1).
    ['2026-10-15T10:00:00.000Z', 1, '2026-11-15T11:00:00.000Z'],
  ])('adds to %s %i month(s): %s', (from, months, end) => {
    expect(addMonthsIn(PARIS, new Date(from), months).toISOString()).toBe(end)
  })

  it.each([
    [PLAN_IDS.essentielMonthly, '2026-02-28T23:30:00.000Z', '2026-03-31T22:30:00.000Z'],
    [PLAN_IDS.essentielYearly, '2027-02-28T23:30:00.000Z', '2028-02-29T23:30:00.000Z'],
    [PLAN_IDS.essentielMonthly, '2028-01-31T09:00:00.000Z', '2028-02-29T09:00:00.000Z'],
  ])('runs the %s plan paid at %s until %s', async (planId, paidAt, end) => {
    t.clock.set(paidAt)
    const { order, pay, subscription } = await buyer()
    await pay((await order(planId)).id)
    expect(await subscription()).toMatchObject({ currentPeriodStart: paidAt, currentPeriodEnd: end })
  })
})

describe('renewal', () => {
  it('extends the same plan paid again from the current end, the start kept', async () => {
    t.clock.set('2030-01-15T09:00:00.000Z')
    const { order, pay, subscription } = await buyer()
    await pay((await order(PLAN_IDS.proMonthly)).id)
    t.clock.advance(5 * DAY)
    await pay((await order(PLAN_IDS.proMonthly)).id)
    expect(await subscription()).toMatchObject({
      planId: PLAN_IDS.proMonthly,
      status: 'ACTIVE',
      currentPeriodStart: '2030-01-15T09:00:00.000Z',
      currentPeriodEnd: '2030-03-15T09:00:00.000Z',
    })
  })

  it('extends the same plan from now once the period is over', async () => {
    t.clock.set('2030-01-15T09:00:00.000Z')
    const { order, pay, subscription } = await buyer()
    await pay((await order(PLAN_IDS.proMonthly)).id)
    // The period ended yesterday (moving the clock a month would end the test sessions).
    await t.db.update(subscriptions).set({
      currentPeriodStart: new Date('2029-12-14T09:00:00.000Z'),
      currentPeriodEnd: new Date('2030-01-14T09:00:00.000Z'),
    })
    t.clock.advance(DAY)
    await pay((await order(PLAN_IDS.proMonthly)).id)
    expect(await subscription()).toMatchObject({
      currentPeriodStart: '2030-01-16T09:00:00.000Z',
      currentPeriodEnd: '2030-02-16T09:00:00.000Z',
    })
  })

  it('starts another plan now, replacing the current one', async () => {
    t.clock.set('2030-01-15T09:00:00.000Z')
    const { order, pay, subscription } = await buyer()
    await pay((await order(PLAN_IDS.proMonthly)).id)
    t.clock.advance(5 * DAY)
    await pay((await order(PLAN_IDS.essentielMonthly)).id)
    expect(await subscription()).toMatchObject({
      planId: PLAN_IDS.essentielMonthly,
      currentPeriodStart: '2030-01-20T09:00:00.000Z',
      currentPeriodEnd: '2030-02-20T09:00:00.000Z',
    })
  })

  it('does not let an older plan order paid late overwrite a newer subscription', async () => {
    t.clock.set('2030-01-15T09:00:00.000Z')
    const { order, pay, subscription } = await buyer()
    const older = await order(PLAN_IDS.essentielYearly)
    t.clock.advance(DAY)
    await pay((await order(PLAN_IDS.proMonthly)).id)
    t.clock.advance(DAY)
    expect((await pay(older.id)).status).toBe(303)
    expect(await subscription()).toMatchObject({
      planId: PLAN_IDS.proMonthly,
      currentPeriodStart: '2030-01-16T09:00:00.000Z',
      currentPeriodEnd: '2030-02-16T09:00:00.000Z',
    })
  })
})
