import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { DASHBOARD_MINE_SHOWN } from '../../../contract/dashboard.ts'
import { DAY } from '../../../tests/server/clock.ts'
import {
  makeKeychain,
  makeOrder,
  makeTags,
  organizationWithAdmin,
  signedInMember,
} from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { makeTransfer, parisDay, subscribe, transferWorld } from '../../../tests/server/transfers.ts'
import { transfers } from '../../db/schema.ts'

const t = setupTestApp()

const organizationPart = async (cookie: string) => {
  const response = await t.get('/api/stats/dashboard', { cookie })
  expect(response.status).toBe(200)
  return (await response.json()).organization
}

describe('the dashboard’s setup checklist (issue 23)', () => {
  it('ticks each step as the organization takes it: a keychain, tags, another member, a plan', async () => {
    const { organization, admin } = await organizationWithAdmin(t, 'Neuve')
    const steps = async () => (await organizationPart(admin.cookie)).setup
    expect(await steps()).toEqual({ keychain: false, tags: false, member: false, plan: false })

    await makeKeychain(t, organization.id, 'Cave')
    expect(await steps()).toEqual({ keychain: true, tags: false, member: false, plan: false })

    // An order not paid yet is not tags ordered; a paid one is, before its tags exist.
    await makeOrder(t, organization.id, { status: 'CREATED' })
    expect((await steps()).tags).toBe(false)
    await makeOrder(t, organization.id, { status: 'PAID' })
    expect((await steps()).tags).toBe(true)

    const invited = await t.post(`/api/organizations/${organization.id}/users`, {
      cookie: admin.cookie,
      json: { email: 'nouvelle@example.com', role: 'MEMBER' },
    })
    expect(invited.status).toBe(201)
    expect((await steps()).member).toBe(true)

    await subscribe(t, organization.id, 10)
    expect(await steps()).toEqual({ keychain: true, tags: true, member: true, plan: true })
  })

  it('counts tags made without an order, and an expired plan as chosen; another organization’s steps do not count', async () => {
    const { organization, admin } = await organizationWithAdmin(t, 'Ancienne')
    const other = await organizationWithAdmin(t, 'Voisine')
    await makeTags(t, organization.id, 2)
    await subscribe(t, organization.id, 5, {
      start: new Date(t.clock.now().getTime() - 60 * DAY),
      end: new Date(t.clock.now().getTime() - DAY),
    })
    expect(await organizationPart(admin.cookie)).toMatchObject({
      setup: { tags: true, plan: true },
      allowance: null,
    })
    expect((await organizationPart(other.admin.cookie)).setup).toEqual({
      keychain: false,
      tags: false,
      member: false,
      plan: false,
    })
  })
})

describe('the dashboard’s allowance this month (issue 23)', () => {
  it('says the transfers used and the plan’s monthly limit, as the plans page counts them', async () => {
    const { organization, admin, member, keychain } = await transferWorld(t, { allowance: 8 })
    const lend = (status?: 'CANCELLED') =>
      makeTransfer(t, {
        organizationId: organization.id,
        keychainId: keychain.id,
        recipientId: member.id,
        status,
      })
    await lend()
    await lend()
    // Cancelled before its window closed: given back.
    await lend('CANCELLED')
    const last = await lend()
    // Authorized last month: not this month's.
    await t.db
      .update(transfers)
      .set({ createdAt: new Date('2029-12-20T10:00:00Z') })
      .where(eq(transfers.id, last.id))
    const { allowance } = await organizationPart(admin.cookie)
    const { subscription } = await (
      await t.get(`/api/organizations/${organization.id}/subscription`, { cookie: admin.cookie })
    ).json()
    expect(allowance).toEqual({ used: 2, limit: 8, renewsAt: '2030-01-31T23:00:00.000Z' })
    expect(subscription.transfersUsedThisMonth).toBe(allowance.used)
    expect(subscription.allowanceRenewsAt).toBe(allowance.renewsAt)
  })

  it('is null without a plan, and a CONTACT gets no organization part at all', async () => {
    const { organization, admin } = await organizationWithAdmin(t, 'Sans plan')
    const contact = await signedInMember(t, organization.id, 'CONTACT')
    expect((await organizationPart(admin.cookie)).allowance).toBeNull()
    expect(await organizationPart(contact.cookie)).toBeNull()
  })
})

describe('the dashboard’s own keychains (issue 23)', () => {
  it('lists what the caller holds in the selected organization, those due back first, with the total', async () => {
    const { organization, admin, member, contact } = await transferWorld(t, { name: 'Trousseaux' })
    const other = await organizationWithAdmin(t, 'Ailleurs')
    const attic = await makeKeychain(t, organization.id, 'Grenier', member.id)
    const office = await makeKeychain(t, organization.id, 'Bureau', member.id)
    await makeKeychain(t, organization.id, 'Garage', admin.id)
    await makeKeychain(t, organization.id, 'Libre')
    await makeKeychain(t, other.organization.id, 'Étranger', member.id)
    // Deleted (soft): no longer theirs to show.
    const gone = await makeKeychain(t, organization.id, 'Supprimé', member.id)
    expect((await t.delete(`/api/keychains/${gone.id}`, { cookie: admin.cookie })).status).toBe(204)
    const out = await makeTransfer(t, {
      organizationId: organization.id,
      keychainId: office.id,
      recipientId: member.id,
      fromDate: parisDay(t, -2),
      toDate: parisDay(t, 3),
      status: 'TRANSFERRED',
    })
    // A transfer to someone else, or scheduled, gives no due date.
    await makeTransfer(t, { organizationId: organization.id, keychainId: attic.id, recipientId: contact.id })

    const { mine } = await organizationPart(member.cookie)
    expect(mine).toEqual({
      total: 3,
      keychains: [
        { id: office.id, name: 'Bureau', transferId: out.id, dueDate: parisDay(t, 3) },
        { id: expect.any(String), name: 'Cave', transferId: null, dueDate: null },
        { id: attic.id, name: 'Grenier', transferId: null, dueDate: null },
      ],
    })
    expect((await organizationPart(admin.cookie)).mine).toMatchObject({
      total: 1,
      keychains: [{ name: 'Garage' }],
    })
  })

  it('shows at most DASHBOARD_MINE_SHOWN and counts them all', async () => {
    const { organization } = await organizationWithAdmin(t, 'Beaucoup')
    const member = await signedInMember(t, organization.id, 'MEMBER')
    for (let index = 0; index < DASHBOARD_MINE_SHOWN + 2; index += 1)
      await makeKeychain(t, organization.id, `Clé ${String(index).padStart(2, '0')}`, member.id)
    const { mine } = await organizationPart(member.cookie)
    expect(mine.total).toBe(DASHBOARD_MINE_SHOWN + 2)
    expect(mine.keychains.map((each: { name: string }) => each.name)).toEqual(
      Array.from({ length: DASHBOARD_MINE_SHOWN }, (_, index) => `Clé ${String(index).padStart(2, '0')}`),
    )
  })
})
