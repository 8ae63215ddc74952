import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { planCartItem } from '../../../contract/commerce.ts'
import { DAY } from '../../../tests/server/clock.ts'
import { operatorMove, placeOrder, plansOf, settleLocally, tagItem } from '../../../tests/server/commerce.ts'
import { organizationWithAdmin, signedInMember } from '../../../tests/server/fixtures.ts'
import { setupTestAppAtEpoch } from '../../../tests/server/harness.ts'
import { authorize, dates, pickup, toMember, transferWorld } from '../../../tests/server/transfers.ts'
import { jobs, memberships, organizations, subscriptions, users } from '../../db/schema.ts'
import type { ClaimedJob } from '../../jobs/queue.ts'
import { PRODUCTION_ACTIONS } from '../orders/actions.ts'
import { PLAN_IDS } from '../plans/catalog.ts'
import { noticeHandler } from './notices.ts'

const OPERATOR = 'ops@notices.example.test'
const t = setupTestAppAtEpoch({ clearMail: true, config: { operatorEmails: [OPERATOR] } })

const subjects = (email: string) => t.mail.to(email).map((mail) => mail.subject)

describe('notices of a transfer', () => {
  it('tells whoever authorized it of the pickup and the return, in their language, naming who did it', async () => {
    const { organization, admin, member, contact, keychain } = await transferWorld(t)
    const manager = await signedInMember(t, organization.id, 'MANAGER')
    await t.db.update(users).set({ locale: 'en', firstName: 'Max' }).where(eq(users.id, manager.id))
    await t.db.update(users).set({ firstName: 'Yanis' }).where(eq(users.id, member.id))
    const lent = await (await authorize(t, manager.cookie, keychain.id, dates(toMember(contact.id)))).json()
    t.mail.clear()
    expect((await pickup(t, contact.cookie, lent.id)).status).toBe(201)
    expect(subjects(manager.email)).toEqual(['Picked up: the keychain “Cave”'])
    expect(t.mail.to(admin.email)).toHaveLength(0)
    expect((await pickup(t, member.cookie, lent.id)).status).toBe(201)
    expect(subjects(manager.email)).toEqual([
      'Picked up: the keychain “Cave”',
      'Returned: the keychain “Cave”',
    ])
    expect(t.mail.last(manager.email)?.text).toContain('; Yanis received it.')
  })

  it('links each reader to the transfers in their language, and names the keychain as it is called now', async () => {
    const { organization, admin, contact, keychain } = await transferWorld(t)
    const manager = await signedInMember(t, organization.id, 'MANAGER')
    await t.db.update(users).set({ locale: 'en' }).where(eq(users.id, manager.id))
    const byManager = await (
      await authorize(t, manager.cookie, keychain.id, dates(toMember(contact.id)))
    ).json()
    const renamed = await t.patch(`/api/keychains/${keychain.id}`, {
      cookie: admin.cookie,
      json: { name: 'Cave B' },
    })
    expect(renamed.status).toBe(200)
    t.mail.clear()
    expect((await pickup(t, contact.cookie, byManager.id)).status).toBe(201)
    expect(subjects(manager.email)).toEqual(['Picked up: the keychain “Cave B”'])
    expect(t.mail.last(manager.email)?.text).toContain('http://localhost:3000/en/app/transfers\n')
    await t.db.update(memberships).set({ status: 'DISABLED' }).where(eq(memberships.userId, manager.id))
    expect((await pickup(t, admin.cookie, byManager.id)).status).toBe(201)
    // The admin returned it: no one else to tell. A second transfer, authorized by the admin, is told in French.
    const byAdmin = await (
      await authorize(t, admin.cookie, keychain.id, dates(toMember(contact.id), '2030-01-16', '2030-01-17'))
    ).json()
    t.clock.set(new Date('2030-01-16T09:00:00Z'))
    t.mail.clear()
    expect((await pickup(t, contact.cookie, byAdmin.id)).status).toBe(201)
    expect(subjects(admin.email)).toEqual(['Retiré : le trousseau « Cave B »'])
    expect(t.mail.last(admin.email)?.text).toContain('http://localhost:3000/app/transfers\n')
  })

  it('tells the admins when the authorizer no longer manages there, and never the one who did it', async () => {
    const { organization, admin, contact, keychain } = await transferWorld(t)
    const manager = await signedInMember(t, organization.id, 'MANAGER')
    const lent = await (await authorize(t, manager.cookie, keychain.id, dates(toMember(contact.id)))).json()
    await t.db.update(memberships).set({ status: 'DISABLED' }).where(eq(memberships.userId, manager.id))
    t.mail.clear()
    await pickup(t, contact.cookie, lent.id)
    expect(subjects(admin.email)).toEqual(['Retiré : le trousseau « Cave »'])
    expect(t.mail.to(manager.email)).toHaveLength(0)
    // The admin confirms the return: there is no one else to tell.
    await pickup(t, admin.cookie, lent.id)
    expect(t.mail.to(admin.email)).toHaveLength(1)
  })
})

describe('notices of an order', () => {
  it('tells the admins when it is paid, shipped and delivered', async () => {
    const app = t
    const { organization, admin } = await organizationWithAdmin(app)
    const manager = await signedInMember(app, organization.id, 'MANAGER')
    const order = await placeOrder(app, admin.cookie, [tagItem(10, { alphaCode: 'NOT' })])
    await settleLocally(app, admin.cookie, order.id, 'pay')
    const operator = await app.signIn(OPERATOR)
    for (const action of Object.keys(PRODUCTION_ACTIONS)) {
      expect((await operatorMove(app, operator.cookie, order.id, action)).status).toBe(200)
    }
    const reference = order.reference
    expect(subjects(admin.email)).toEqual([
      `Commande ${reference} payée`,
      `Commande ${reference} expédiée`,
      `Commande ${reference} livrée`,
    ])
    expect(t.mail.last(admin.email)?.text).toContain(`/app/orders/${order.id}`)
    expect(t.mail.to(manager.email)).toHaveLength(0)
    // Confirming and producing are not told: the order's notices are those three, each run without a failure.
    const notices = await t.db.select().from(jobs).where(eq(jobs.organizationId, organization.id))
    const told = notices.filter((job) => job.kind === 'notice')
    expect(told.map((job) => (job.payload as { kind: string }).kind).sort()).toEqual([
      'order.delivered',
      'order.paid',
      'order.shipped',
    ])
    expect(notices.every((job) => job.failedAt === null && job.lastError === null)).toBe(true)
  })
})

describe('notices of a plan', () => {
  it('tells the admins of a renewal, and a week before the period ends unless it was renewed meanwhile', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const plans = await plansOf(t, admin.cookie)
    const monthly = planCartItem(plans.find((plan) => plan.id === PLAN_IDS.essentielMonthly)!)
    // Signed in afresh each time: a month later, the first session has ended.
    const buy = async () => {
      const { cookie } = await t.signIn(admin.email)
      const order = await placeOrder(t, cookie, [monthly])
      await settleLocally(t, cookie, order.id, 'pay')
    }
    await buy()
    // A first plan is told as its order, not as a renewal.
    expect(subjects(admin.email).some((subject) => subject.startsWith('Formule'))).toBe(false)
    const periodEnd = async () =>
      (await t.db.select().from(subscriptions).where(eq(subscriptions.organizationId, organization.id)))[0]!
        .currentPeriodEnd
    const firstEnd = await periodEnd()
    t.mail.clear()

    // Renewed ten days before the end: told at once; the first period's warning then does nothing.
    t.clock.set(new Date(firstEnd.getTime() - 10 * DAY))
    await buy()
    expect(subjects(admin.email).filter((subject) => subject.startsWith('Formule'))).toEqual([
      'Formule Essentiel renouvelée',
    ])
    t.mail.clear()
    t.clock.set(new Date(firstEnd.getTime() - 7 * DAY))
    await t.runJobs()
    expect(t.mail.to(admin.email)).toHaveLength(0)

    // Another plan while this one runs is not a renewal either.
    const annual = planCartItem(plans.find((plan) => plan.id === PLAN_IDS.essentielYearly)!)
    const { cookie } = await t.signIn(admin.email)
    await settleLocally(t, cookie, (await placeOrder(t, cookie, [annual])).id, 'pay')
    expect(subjects(admin.email).some((subject) => subject.startsWith('Formule'))).toBe(false)
    t.mail.clear()

    const secondEnd = await periodEnd()
    t.clock.set(new Date(secondEnd.getTime() - 7 * DAY))
    await t.runJobs()
    expect(subjects(admin.email)).toEqual([expect.stringMatching(/^Votre formule Essentiel se termine le /)])
  })
})

describe('the notice job', () => {
  const claimed = (payload: Record<string, unknown>, organizationId: string | null = null): ClaimedJob => ({
    id: randomUUID(),
    kind: 'notice',
    payload,
    organizationId,
    attempts: 1,
    maxAttempts: 12,
  })
  const mailJobs = async () => (await t.db.select().from(jobs)).filter((job) => job.kind === 'mail')

  it('tells no one of a transfer, an order or a plan that is not there', async () => {
    const handler = noticeHandler(t.deps)
    const missing = randomUUID()
    const before = (await mailJobs()).length
    for (const payload of [
      { kind: 'transfer.returned', transferId: missing, actorId: missing, at: t.clock.now().toISOString() },
      { kind: 'order.paid', orderId: missing },
      { kind: 'subscription.renewed', organizationId: missing },
    ]) {
      expect(await handler(claimed(payload))).toBeUndefined()
    }
    expect(await mailJobs()).toHaveLength(before)
  })

  it('mails each reader once when a notice runs again, linked under the public address without a doubled slash', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const order = await placeOrder(t, admin.cookie, [tagItem(10, { alphaCode: 'DUP' })])
    const handler = noticeHandler({
      ...t.deps,
      config: { ...t.config, publicUrl: 'https://keys.example.test//' },
    })
    const job = claimed({ kind: 'order.paid', orderId: order.id }, organization.id)
    t.mail.clear()
    await handler(job)
    await handler(job)
    const queued = (await mailJobs()).filter((each) => each.organizationId === organization.id)
    expect(queued.map((each) => each.dedupeKey)).toEqual([`mail:${job.id}:${admin.profile.id}`])
    await t.runJobs()
    expect(subjects(admin.email)).toEqual([`Commande ${order.reference} payée`])
    expect(t.mail.last(admin.email)?.text).toContain(`https://keys.example.test/app/orders/${order.id}\n`)
  })

  it('tells only the admin who authorized a transfer, not the other admins, and names no one for an unknown receiver', async () => {
    const { organization, admin, contact, keychain } = await transferWorld(t)
    const other = await signedInMember(t, organization.id, 'ADMIN')
    const lent = await (await authorize(t, admin.cookie, keychain.id, dates(toMember(contact.id)))).json()
    t.mail.clear()
    expect((await pickup(t, contact.cookie, lent.id)).status).toBe(201)
    expect(subjects(admin.email)).toEqual(['Retiré : le trousseau « Cave »'])
    expect(t.mail.to(other.email)).toHaveLength(0)
    t.mail.clear()
    const at = t.clock.now().toISOString()
    await noticeHandler(t.deps)(
      claimed({ kind: 'transfer.returned', transferId: lent.id, actorId: randomUUID(), at }),
    )
    await t.runJobs()
    // The actor is no user (any more): the sentence names no one rather than failing the notice.
    expect(t.mail.last(admin.email)?.text).toContain('est revenu chez Agence le 15 janvier 2030 ;  l’a reçu.')
  })

  it('names the last day of a period that ends at midnight, the day before its end', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const plans = await plansOf(t, admin.cookie)
    const monthly = planCartItem(plans.find((plan) => plan.id === PLAN_IDS.essentielMonthly)!)
    await settleLocally(t, admin.cookie, (await placeOrder(t, admin.cookie, [monthly])).id, 'pay')
    const [stored] = await t.db.select().from(organizations).where(eq(organizations.id, organization.id))
    expect(stored?.timeZone).toBe('Europe/Paris')
    const end = new Date('2030-03-01T00:00:00+01:00')
    await t.db
      .update(subscriptions)
      .set({ currentPeriodEnd: end })
      .where(eq(subscriptions.organizationId, organization.id))
    t.mail.clear()
    const payload = {
      kind: 'subscription.ending',
      organizationId: organization.id,
      periodEnd: end.toISOString(),
    }
    await noticeHandler(t.deps)(claimed(payload, organization.id))
    await t.runJobs()
    expect(subjects(admin.email)).toEqual(['Votre formule Essentiel se termine le 28 février 2030'])
    expect(t.mail.last(admin.email)?.text).toContain('http://localhost:3000/app/plans\n')
  })
})
