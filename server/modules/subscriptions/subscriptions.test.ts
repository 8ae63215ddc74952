import { describe, expect, it } from 'vitest'
import { DAY } from '../../../tests/server/clock.ts'
import { organizationWithAdmin, signedInMember } from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { subscribe } from '../../../tests/server/transfers.ts'
import { addMonths, monthBoundsIn } from '../../shared/time-zones.ts'
import { PLAN_IDS } from '../plans/catalog.ts'
import { activeSubscription, transfersUsedThisMonth } from './service.ts'

const t = setupTestApp()

describe('calendar months in a time zone', () => {
  it.each([
    ['2030-01-15T09:00:00Z', '2029-12-31T23:00:00.000Z', '2030-01-31T23:00:00.000Z'],
    // 31 Mar 2030 23:30 UTC is already 1 April in Paris (summer time, UTC+2).
    ['2030-03-31T22:30:00Z', '2030-03-31T22:00:00.000Z', '2030-04-30T22:00:00.000Z'],
    // Summer time starts on 31 Mar 2030: March runs from UTC+1 midnight to UTC+2 midnight.
    ['2030-03-10T12:00:00Z', '2030-02-28T23:00:00.000Z', '2030-03-31T22:00:00.000Z'],
    ['2030-12-31T23:30:00Z', '2030-12-31T23:00:00.000Z', '2031-01-31T23:00:00.000Z'],
  ])('puts %s in the Paris month [%s, %s)', (now, start, end) => {
    const bounds = monthBoundsIn('Europe/Paris', new Date(now))
    expect(bounds.start.toISOString()).toBe(start)
    expect(bounds.end.toISOString()).toBe(end)
  })

  it('adds months with the day clamped to the month’s length', () => {
    expect(addMonths(new Date('2030-01-31T10:00:00Z'), 1).toISOString()).toBe('2030-02-28T10:00:00.000Z')
    expect(addMonths(new Date('2032-01-31T10:00:00Z'), 1).toISOString()).toBe('2032-02-29T10:00:00.000Z')
    expect(addMonths(new Date('2030-05-15T10:00:00Z'), 12).toISOString()).toBe('2031-05-15T10:00:00.000Z')
  })
})

describe('GET /organizations/{id}/subscription', () => {
  it('answers null without a subscription, then ACTIVE with the allowance, then EXPIRED', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const path = `/api/organizations/${organization.id}/subscription`
    expect(await (await t.get(path, { cookie: admin.cookie })).json()).toEqual({ subscription: null })

    const now = t.clock.now()
    await subscribe(t, organization.id, 10, { start: now, end: new Date(now.getTime() + 6 * DAY) })
    expect(await (await t.get(path, { cookie: admin.cookie })).json()).toEqual({
      subscription: {
        planId: PLAN_IDS.essentielMonthly,
        planName: 'Essentiel',
        billingCycle: 'MONTHLY',
        status: 'ACTIVE',
        currentPeriodStart: '2030-01-15T09:00:00.000Z',
        currentPeriodEnd: '2030-01-21T09:00:00.000Z',
        transfersPerMonth: 10,
        transfersUsedThisMonth: 0,
        allowanceRenewsAt: '2030-01-31T23:00:00.000Z',
      },
    })
    expect((await activeSubscription(t.db, organization.id, now))?.planId).toBe(PLAN_IDS.essentielMonthly)
    expect(await transfersUsedThisMonth(t.db, organization.id, now)).toBe(0)

    t.clock.advance(6 * DAY)
    const { subscription } = await (await t.get(path, { cookie: admin.cookie })).json()
    expect(subscription.status).toBe('EXPIRED')
    expect(await activeSubscription(t.db, organization.id, t.clock.now())).toBeNull()
  })

  it('is read by ADMINs and MANAGERs (who authorize transfers), not MEMBERs; a foreign organization is a 404', async () => {
    const { organization } = await organizationWithAdmin(t)
    const other = await organizationWithAdmin(t, 'Other')
    const path = `/api/organizations/${organization.id}/subscription`
    const manager = await signedInMember(t, organization.id, 'MANAGER')
    expect((await t.get(path, { cookie: manager.cookie })).status).toBe(200)
    const member = await signedInMember(t, organization.id, 'MEMBER')
    expect((await t.get(path, { cookie: member.cookie })).status).toBe(403)
    expect((await t.get(path, { cookie: other.admin.cookie })).status).toBe(404)
  })
})
