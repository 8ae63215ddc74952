import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import type { PlanConfiguration } from '../../../contract/commerce.ts'
import { DAY, HOUR, TEST_EPOCH } from '../../../tests/server/clock.ts'
import { makeKeychain, makeOrder, organizationWithAdmin } from '../../../tests/server/fixtures.ts'
import { setupTestAppAtEpoch } from '../../../tests/server/harness.ts'
import { makeTransfer, subscribe } from '../../../tests/server/transfers.ts'
import { organizations, subscriptions, transfers } from '../../db/schema.ts'
import { PLAN_IDS } from '../plans/catalog.ts'
import {
  activeSubscription,
  organizationSubscription,
  startSubscription,
  timeZoneOf,
  transfersUsedThisMonth,
} from './service.ts'

/** The subscription rules (subscriptions/service.ts) at their boundaries, called directly. */
const t = setupTestAppAtEpoch() // 2030-01-15T09:00Z; the Paris month is [2029-12-31T23:00Z, 2030-01-31T23:00Z)

const JANUARY_START = new Date('2029-12-31T23:00:00.000Z')
const FEBRUARY_START = new Date('2030-01-31T23:00:00.000Z')

async function subscribedFor(start: Date, end: Date) {
  const { organization } = await organizationWithAdmin(t)
  await subscribe(t, organization.id, 10, { start, end })
  return organization
}

/** Makes transfers of a keychain of the organization, to the ADMIN of another organization. */
async function transfersOf(organizationId: string) {
  const keychain = await makeKeychain(t, organizationId)
  const { admin } = await organizationWithAdmin(t, 'Recipient')
  return () => makeTransfer(t, { organizationId, keychainId: keychain.id, recipientId: admin.id })
}

describe('activeSubscription()', () => {
  it('is in force from the first instant of its period to the last one before its end', async () => {
    const start = TEST_EPOCH
    const end = new Date(start.getTime() + DAY)
    const organization = await subscribedFor(start, end)
    const at = (ms: number) => activeSubscription(t.db, organization.id, new Date(ms))
    expect(await at(start.getTime() - 1)).toBeNull()
    expect((await at(start.getTime()))?.organizationId).toBe(organization.id)
    expect((await at(end.getTime() - 1))?.organizationId).toBe(organization.id)
    expect(await at(end.getTime())).toBeNull()
    const locked = await t.db.transaction((tx) =>
      activeSubscription(tx, organization.id, start, { lock: true }),
    )
    expect(locked?.organizationId).toBe(organization.id)
  })

  it('is null for an organization without a subscription', async () => {
    const { organization } = await organizationWithAdmin(t)
    expect(await activeSubscription(t.db, organization.id, TEST_EPOCH)).toBeNull()
  })
})

describe('organizationSubscription()', () => {
  it('answers a subscription not started yet as EXPIRED, with nothing used', async () => {
    const organization = await subscribedFor(
      new Date(TEST_EPOCH.getTime() + HOUR),
      new Date(TEST_EPOCH.getTime() + DAY),
    )
    await (await transfersOf(organization.id))()
    expect(await organizationSubscription(t.db, organization.id, TEST_EPOCH)).toMatchObject({
      status: 'EXPIRED',
      transfersUsedThisMonth: 0,
      allowanceRenewsAt: FEBRUARY_START.toISOString(),
    })
  })

  it('counts the month’s transfers while ACTIVE, up to the last instant of the period', async () => {
    const end = new Date(TEST_EPOCH.getTime() + DAY)
    const organization = await subscribedFor(TEST_EPOCH, end)
    await (await transfersOf(organization.id))()
    expect(await organizationSubscription(t.db, organization.id, TEST_EPOCH)).toMatchObject({
      status: 'ACTIVE',
      transfersUsedThisMonth: 1,
    })
    expect(await organizationSubscription(t.db, organization.id, new Date(end.getTime() - 1))).toMatchObject({
      status: 'ACTIVE',
      transfersUsedThisMonth: 1,
    })
    expect(await organizationSubscription(t.db, organization.id, end)).toMatchObject({
      status: 'EXPIRED',
      transfersUsedThisMonth: 0,
    })
  })
})

describe('transfersUsedThisMonth()', () => {
  it('counts the transfers created in [month start, next month start), of this organization only', async () => {
    const organization = await subscribedFor(JANUARY_START, FEBRUARY_START)
    const other = await subscribedFor(JANUARY_START, FEBRUARY_START)
    const keychain = await makeKeychain(t, organization.id)
    const { admin } = await organizationWithAdmin(t, 'Recipient')
    const createdAt = async (at: Date, organizationId = organization.id) => {
      const row = await makeTransfer(t, {
        organizationId,
        keychainId:
          organizationId === organization.id ? keychain.id : (await makeKeychain(t, organizationId)).id,
        recipientId: admin.id,
      })
      await t.db.update(transfers).set({ createdAt: at }).where(eq(transfers.id, row.id))
    }
    await createdAt(new Date(JANUARY_START.getTime() - 1)) // December
    await createdAt(JANUARY_START)
    await createdAt(new Date(FEBRUARY_START.getTime() - 1))
    await createdAt(FEBRUARY_START) // February
    await createdAt(new Date('2030-01-31T23:30:00.000Z')) // February in Paris, still January in UTC
    await createdAt(TEST_EPOCH, other.id)
    expect(await transfersUsedThisMonth(t.db, organization.id, TEST_EPOCH)).toBe(2)
    expect(await transfersUsedThisMonth(t.db, organization.id, TEST_EPOCH, 'Europe/Paris')).toBe(2)
    // In UTC, January is [2030-01-01T00:00Z, 2030-02-01T00:00Z): this organization’s last three rows, not its first two.
    expect(await transfersUsedThisMonth(t.db, organization.id, TEST_EPOCH, 'UTC')).toBe(3)
  })

  it('gives back a transfer cancelled before its window closed, not one cancelled at its end or later', async () => {
    const organization = await subscribedFor(JANUARY_START, FEBRUARY_START)
    const transfer = await transfersOf(organization.id)
    const cancelledAt = async (offset: number) => {
      const row = await transfer()
      await t.db
        .update(transfers)
        .set({ status: 'CANCELLED', cancelledAt: new Date(row.endsAt.getTime() + offset) })
        .where(eq(transfers.id, row.id))
    }
    await cancelledAt(-1)
    expect(await transfersUsedThisMonth(t.db, organization.id, TEST_EPOCH)).toBe(0)
    await cancelledAt(0)
    expect(await transfersUsedThisMonth(t.db, organization.id, TEST_EPOCH)).toBe(1)
    await cancelledAt(HOUR)
    expect(await transfersUsedThisMonth(t.db, organization.id, TEST_EPOCH)).toBe(2)
  })
})

describe('timeZoneOf()', () => {
  it('reads the organization’s zone, and Europe/Paris for an unknown organization', async () => {
    const { organization } = await organizationWithAdmin(t)
    await t.db
      .update(organizations)
      .set({ timeZone: 'America/New_York' })
      .where(eq(organizations.id, organization.id))
    expect(await timeZoneOf(t.db, organization.id)).toBe('America/New_York')
    expect(await timeZoneOf(t.db, randomUUID())).toBe('Europe/Paris')
  })
})

describe('startSubscription()', () => {
  const plan = (overrides: Partial<PlanConfiguration> = {}): PlanConfiguration => ({
    billingCycle: 'MONTHLY',
    recurringInterval: 'month',
    recurringIntervalCount: 1,
    quantity: 10,
    name: 'Essentiel',
    ...overrides,
  })

  async function world() {
    const { organization } = await organizationWithAdmin(t)
    const start = (planId: string, configuration: PlanConfiguration, orderId: string, now = t.clock.now()) =>
      t.db.transaction((tx) =>
        startSubscription(tx, { organizationId: organization.id, planId, plan: configuration, orderId, now }),
      )
    const row = async () =>
      (await t.db.select().from(subscriptions).where(eq(subscriptions.organizationId, organization.id)))[0]
    const order = async () => (await makeOrder(t, organization.id, { status: 'PAID' })).id
    return { organization, start, row, order }
  }

  it('starts a first plan now for its interval × count months, with the plan’s name, cycle and allowance', async () => {
    const { start, row, order } = await world()
    const orderId = await order()
    expect(
      await start(
        PLAN_IDS.essentielYearly,
        plan({ billingCycle: 'YEARLY', recurringInterval: 'year', quantity: 7, name: 'Annuel' }),
        orderId,
      ),
    ).toBe(true)
    expect(await row()).toMatchObject({
      planId: PLAN_IDS.essentielYearly,
      orderId,
      planName: 'Annuel',
      billingCycle: 'YEARLY',
      transfersPerMonth: 7,
      currentPeriodStart: TEST_EPOCH,
      currentPeriodEnd: new Date('2031-01-15T09:00:00.000Z'),
      createdAt: TEST_EPOCH,
      updatedAt: TEST_EPOCH,
    })
  })

  it('counts an interval count of months: 3 monthly intervals end three months later', async () => {
    const { start, row, order } = await world()
    await start(PLAN_IDS.essentielMonthly, plan({ recurringIntervalCount: 3 }), await order())
    expect((await row())?.currentPeriodEnd).toEqual(new Date('2030-04-15T08:00:00.000Z'))
  })

  it('starts the plan anew when the current period ends exactly now', async () => {
    const { start, row, order } = await world()
    await start(PLAN_IDS.essentielMonthly, plan(), await order(), new Date('2029-12-15T09:00:00.000Z'))
    const now = new Date('2030-01-15T09:00:00.000Z')
    expect((await row())?.currentPeriodEnd).toEqual(now)
    await start(PLAN_IDS.essentielMonthly, plan(), await order(), now)
    expect(await row()).toMatchObject({
      currentPeriodStart: now,
      currentPeriodEnd: new Date('2030-02-15T09:00:00.000Z'),
    })
  })

  it('replaces a running plan that came from no order, and one from an older order', async () => {
    const { organization, start, row, order } = await world()
    await start(PLAN_IDS.proMonthly, plan({ name: 'Pro' }), await order())
    await t.db
      .update(subscriptions)
      .set({ orderId: null })
      .where(eq(subscriptions.organizationId, organization.id))
    t.clock.advance(DAY)
    const newer = await order()
    expect(await start(PLAN_IDS.essentielMonthly, plan(), newer)).toBe(true)
    expect(await row()).toMatchObject({
      planId: PLAN_IDS.essentielMonthly,
      orderId: newer,
      currentPeriodStart: t.clock.now(),
    })
    const newest = await order()
    t.clock.advance(DAY)
    expect(await start(PLAN_IDS.proMonthly, plan({ name: 'Pro' }), newest)).toBe(true)
    expect(await row()).toMatchObject({ planId: PLAN_IDS.proMonthly, orderId: newest })
  })

  it('leaves a running plan from a newer order as it is, and answers false', async () => {
    const { start, row, order } = await world()
    const older = await order()
    const newer = await order()
    await start(PLAN_IDS.proMonthly, plan({ name: 'Pro' }), newer)
    const before = await row()
    t.clock.advance(DAY)
    expect(await start(PLAN_IDS.essentielMonthly, plan(), older)).toBe(false)
    expect(await row()).toEqual(before)
  })
})
