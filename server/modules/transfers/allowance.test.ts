import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { makeKeychain } from '../../../tests/server/fixtures.ts'
import { setupTestAppAtEpoch } from '../../../tests/server/harness.ts'
import {
  authorize,
  dates,
  makeTransfer,
  subscribe,
  toMember,
  transferWorld,
} from '../../../tests/server/transfers.ts'
import { subscriptions } from '../../db/schema.ts'
import { transfersUsedThisMonth } from '../subscriptions/service.ts'

const t = setupTestAppAtEpoch({ clearMail: true })

describe('subscription and monthly allowance', () => {
  it('answers 402 subscription_required without a running subscription', async () => {
    const { organization, admin, contact, keychain } = await transferWorld(t)
    await t.db.delete(subscriptions).where(eq(subscriptions.organizationId, organization.id))
    const none = await authorize(t, admin.cookie, keychain.id, dates(toMember(contact.id)))
    expect(none.status).toBe(402)
    expect((await none.json()).error).toMatchObject({
      code: 'subscription_required',
      message: 'Les transferts nécessitent un abonnement actif : choisissez d’abord une formule.',
    })
    await subscribe(t, organization.id)
    await t.db
      .update(subscriptions)
      .set({ currentPeriodEnd: t.clock.now() })
      .where(eq(subscriptions.organizationId, organization.id))
    const late = await authorize(t, admin.cookie, keychain.id, dates(toMember(contact.id)))
    expect((await late.json()).error.code).toBe('subscription_required')
  })

  it('answers 402 transfer_allowance_exceeded with used, allowance, renewsAt and a message; cancelling gives one back', async () => {
    const { organization, admin, contact } = await transferWorld(t, { allowance: 2 })
    const keychains = await Promise.all(['A', 'B', 'C'].map((name) => makeKeychain(t, organization.id, name)))
    const first = await (
      await authorize(t, admin.cookie, keychains[0]!.id, dates(toMember(contact.id)))
    ).json()
    expect((await authorize(t, admin.cookie, keychains[1]!.id, dates(toMember(contact.id)))).status).toBe(201)
    const over = await authorize(t, admin.cookie, keychains[2]!.id, dates(toMember(contact.id)))
    expect(over.status).toBe(402)
    expect((await over.json()).error).toEqual({
      code: 'transfer_allowance_exceeded',
      message: 'Les transferts de ce mois sont épuisés : 2 sur 2. Le quota se renouvelle le 1 février 2030.',
      used: 2,
      allowance: 2,
      renewsAt: '2030-01-31T23:00:00.000Z',
    })
    await t.patch('/api/profile', { cookie: admin.cookie, json: { locale: 'en' } })
    const english = await authorize(t, admin.cookie, keychains[2]!.id, dates(toMember(contact.id)))
    expect((await english.json()).error.message).toBe(
      'This month’s transfers are used up: 2 of 2. The allowance renews on 1 February 2030.',
    )
    // The page's language wins over the account's: an English account reading the French app gets French.
    const onFrenchPage = await t.post(`/api/keychains/${keychains[2]!.id}/transfers`, {
      cookie: admin.cookie,
      json: dates(toMember(contact.id)),
      headers: { 'accept-language': 'fr' },
    })
    expect((await onFrenchPage.json()).error.message).toBe(
      'Les transferts de ce mois sont épuisés : 2 sur 2. Le quota se renouvelle le 1 février 2030.',
    )

    expect((await t.delete(`/api/transfers/${first.id}`, { cookie: admin.cookie })).status).toBe(200)
    expect(await transfersUsedThisMonth(t.db, organization.id, t.clock.now())).toBe(1)
    expect((await authorize(t, admin.cookie, keychains[2]!.id, dates(toMember(contact.id)))).status).toBe(201)
  })

  it('counts a transfer in the Paris month it was created in: 23:30 UTC on 31 January is February', async () => {
    t.clock.set('2030-01-31T23:30:00Z')
    const { organization, admin, contact, keychain } = await transferWorld(t, { allowance: 1 })
    const response = await authorize(
      t,
      admin.cookie,
      keychain.id,
      dates(toMember(contact.id), '2030-02-01', '2030-02-03'),
    )
    expect(response.status).toBe(201)
    const used = (at: string) => transfersUsedThisMonth(t.db, organization.id, new Date(at))
    expect(await used('2030-01-31T22:59:59.999Z')).toBe(0)
    expect(await used('2030-01-31T23:00:00.000Z')).toBe(1)
    expect(await used('2030-02-28T22:59:59.999Z')).toBe(1)
    expect(await used('2030-02-28T23:00:00.000Z')).toBe(0)
    const other = await makeKeychain(t, organization.id, 'Other')
    const over = await authorize(
      t,
      admin.cookie,
      other.id,
      dates(toMember(contact.id), '2030-02-01', '2030-02-03'),
    )
    expect((await over.json()).error).toMatchObject({
      used: 1,
      allowance: 1,
      renewsAt: '2030-02-28T23:00:00.000Z',
    })
    t.clock.set('2030-02-28T23:00:00Z') // 1 March in Paris: a new allowance
    const { cookie } = await t.signIn(admin.email) // (a month later the first session has gone idle)
    const march = await authorize(
      t,
      cookie,
      other.id,
      dates(toMember(contact.id), '2030-03-01', '2030-03-02'),
    )
    expect(march.status).toBe(201)
  })

  it('lets only one of two authorizations racing for the last transfer of the month through', async () => {
    const { organization, admin, contact } = await transferWorld(t, { allowance: 1 })
    const [a, b] = await Promise.all(['A', 'B'].map((name) => makeKeychain(t, organization.id, name)))
    const answers = await Promise.all(
      [a!, b!].map((keychain) => authorize(t, admin.cookie, keychain.id, dates(toMember(contact.id)))),
    )
    expect(answers.map((response) => response.status).sort()).toEqual([201, 402])
    expect(await transfersUsedThisMonth(t.db, organization.id, t.clock.now())).toBe(1)
  })
})

describe('overlapping windows', () => {
  it('refuses a window meeting an active transfer’s (half-open), not one that only touches it', async () => {
    const { admin, contact, keychain } = await transferWorld(t)
    expect((await authorize(t, admin.cookie, keychain.id, dates(toMember(contact.id)))).status).toBe(201)
    const overlap = await authorize(
      t,
      admin.cookie,
      keychain.id,
      dates(toMember(contact.id), '2030-01-16', '2030-01-18'),
    )
    expect(overlap.status).toBe(409)
    expect((await overlap.json()).error).toMatchObject({
      code: 'transfer_overlap',
      message: 'Un autre transfert de ce trousseau chevauche ces dates.',
    })
    const inside = await authorize(
      t,
      admin.cookie,
      keychain.id,
      dates(toMember(contact.id), '2030-01-10', '2030-01-20'),
    )
    expect(inside.status).toBe(400) // from in the past
    const around = await authorize(
      t,
      admin.cookie,
      keychain.id,
      dates(toMember(contact.id), '2030-01-15', '2030-01-20'),
    )
    expect(around.status).toBe(409)
    const after = await authorize(
      t,
      admin.cookie,
      keychain.id,
      dates(toMember(contact.id), '2030-01-17', '2030-01-19'),
    )
    expect(after.status).toBe(201)
  })

  it('ignores an expired SCHEDULED transfer, and holds an overdue keychain’s window open until now', async () => {
    const { organization, admin, contact, keychain } = await transferWorld(t)
    await makeTransfer(t, {
      organizationId: organization.id,
      keychainId: keychain.id,
      recipientId: contact.id,
      fromDate: '2030-01-10',
      toDate: '2030-01-15',
    })
    expect((await authorize(t, admin.cookie, keychain.id, dates(toMember(contact.id)))).status).toBe(201)

    const other = await makeKeychain(t, organization.id, 'Overdue')
    await makeTransfer(t, {
      organizationId: organization.id,
      keychainId: other.id,
      recipientId: contact.id,
      fromDate: '2030-01-10',
      toDate: '2030-01-12',
      status: 'TRANSFERRED',
    })
    const today = await authorize(
      t,
      admin.cookie,
      other.id,
      dates(toMember(admin.id), '2030-01-15', '2030-01-16'),
    )
    expect((await today.json()).error?.code).toBe('transfer_overlap')
    const tomorrow = await authorize(
      t,
      admin.cookie,
      other.id,
      dates(toMember(admin.id), '2030-01-16', '2030-01-17'),
    )
    expect(tomorrow.status).toBe(201)
  })

  it('lets one of two racing authorizations of one keychain’s dates through', async () => {
    const { admin, contact, keychain } = await transferWorld(t)
    const answers = await Promise.all(
      [0, 1].map(() => authorize(t, admin.cookie, keychain.id, dates(toMember(contact.id)))),
    )
    expect(answers.map((response) => response.status).sort()).toEqual([201, 409])
  })
})
