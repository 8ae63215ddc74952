// A bulk authorization writes, for each keychain, what one authorization writes: the transfer, its mail, its
// reminders and its ledger entry, and refuses with the same rules (the dates, who holds what, the plan).
import { randomUUID } from 'node:crypto'
import { and, asc, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import {
  addMember,
  makeKeychain,
  organizationWithAdmin,
  signedInMember,
} from '../../../tests/server/fixtures.ts'
import { setupTestApp, TEST_PUBLIC_URL, uniqueEmail } from '../../../tests/server/harness.ts'
import { makeTransfer, parisDay, subscribe } from '../../../tests/server/transfers.ts'
import { jobs, organizationEvents, transfers, users } from '../../db/schema.ts'
import { formatDayIn } from '../../i18n/format.ts'
import { mailJob } from '../../jobs/mail.ts'
import { transferAuthorizedMail } from '../../mail/transfer-mail.ts'
import { monthBoundsIn, startOfDayIn } from '../../shared/time-zones.ts'
import { reminderJobs } from '../transfers/reminders.ts'
import { authorizeTransfers } from './transfers.ts'

const t = setupTestApp()
const ZONE = 'Europe/Paris'

/** An organization on a plan, an English-speaking manager, a member holding four keychains, a contact. */
async function world(allowance = 10) {
  const { organization } = await organizationWithAdmin(t, 'Agence')
  await subscribe(t, organization.id, allowance)
  const signedIn = await t.signIn(uniqueEmail('manager'), { locale: 'en' })
  await addMember(t, { userId: signedIn.profile.id, organizationId: organization.id, role: 'MANAGER' })
  const manager = { ...signedIn, id: signedIn.profile.id }
  const member = await signedInMember(t, organization.id, 'MEMBER')
  const contact = await signedInMember(t, organization.id, 'CONTACT')
  const made = []
  for (const name of ['Cave A', 'Cave B', 'Cave C', 'Garage', 'Bureau'])
    made.push(await makeKeychain(t, organization.id, name, member.id))
  return { organization, manager, member, contact, keychains: made }
}

const authorize = (cookie: string, json: unknown) =>
  t.post('/api/keychain-bulk/transfers', { cookie, json, headers: { 'idempotency-key': randomUUID() } })
const request = (selection: object, recipient: object, from = 1, to = 3) => ({
  ...selection,
  recipient,
  fromDate: parisDay(t, from),
  toDate: parisDay(t, to),
})
const jobsOf = (organizationId: string, kind: string) =>
  t.db
    .select()
    .from(jobs)
    .where(and(eq(jobs.organizationId, organizationId), eq(jobs.kind, kind)))
const error = async (response: Response) =>
  ((await response.json()) as { error: Record<string, unknown> }).error

describe('bulk transfers, one authorization each', () => {
  it('writes each transfer, its mail, its reminders and its ledger entry as one authorization does, in keychain order', async () => {
    const w = await world()
    const chosen = w.keychains.slice(0, 3)
    const response = await authorize(
      w.manager.cookie,
      request({ ids: chosen.map((k) => k.id) }, { kind: 'member', userId: w.contact.id }),
    )
    expect(response.status).toBe(201)
    const result = await response.json()
    const now = t.clock.now()
    const [fromDate, toDate] = [parisDay(t, 1), parisDay(t, 3)]
    const rows = await t.db
      .select()
      .from(transfers)
      .where(eq(transfers.organizationId, w.organization.id))
      .orderBy(asc(transfers.keychainId))
    expect(result).toEqual({ count: 3, unchanged: 0, transferIds: rows.map((row) => row.id) })
    const byId = new Map(chosen.map((keychain) => [keychain.id, keychain]))
    for (const row of rows)
      expect(row).toMatchObject({
        organizationId: w.organization.id,
        keychainName: byId.get(row.keychainId)!.name,
        recipientId: w.contact.id,
        authorizedById: w.manager.id,
        fromDate,
        toDate,
        startsAt: startOfDayIn(ZONE, fromDate),
        endsAt: startOfDayIn(ZONE, toDate),
        status: 'SCHEDULED',
        createdAt: now,
      })
    // The mail of each, as one authorization sends it (the recipient's language, the organization's address).
    const [contact] = await t.db.select().from(users).where(eq(users.id, w.contact.id))
    const expectedMails = rows.map(
      (row) =>
        mailJob(
          transferAuthorizedMail({
            to: contact!.email,
            locale: contact!.locale,
            publicUrl: TEST_PUBLIC_URL,
            transferId: row.id,
            organizationName: w.organization.name,
            keychainName: row.keychainName,
            fromDate,
            toDate,
            authorizerName: w.manager.profile.email,
            address: {
              line1: w.organization.addressLine1,
              line2: w.organization.addressLine2,
              city: w.organization.city,
              postalCode: w.organization.postalCode,
              country: w.organization.country,
            },
            invited: false,
          }),
          { now },
        ).payload,
    )
    const mails = await jobsOf(w.organization.id, 'mail')
    expect(mails.map((job) => job.runAt)).toEqual(rows.map(() => now))
    expect(mails.map((job) => job.payload)).toEqual(expect.arrayContaining(expectedMails))
    expect(mails).toHaveLength(3)
    const reminders = (
      await t.db.select().from(jobs).where(eq(jobs.organizationId, w.organization.id))
    ).filter((job) => job.kind !== 'mail')
    const expectedReminders = rows.flatMap((row) => reminderJobs(row, ZONE, now))
    expect(expectedReminders.length).toBeGreaterThan(0)
    expect(reminders.map((job) => [job.kind, job.payload, job.runAt, job.dedupeKey]).sort()).toEqual(
      expectedReminders.map((job) => [job.kind, job.payload, job.runAt, job.dedupeKey]).sort(),
    )
    const events = await t.db
      .select()
      .from(organizationEvents)
      .where(
        and(
          eq(organizationEvents.organizationId, w.organization.id),
          eq(organizationEvents.kind, 'transfer.authorized'),
        ),
      )
      .orderBy(asc(organizationEvents.seq))
    expect(
      events.map((event) => [
        event.actorId,
        event.serverTime,
        event.clientTime,
        event.fromQueue,
        event.keychainIds,
        event.tagIds,
        event.transferIds,
        event.payload,
      ]),
    ).toEqual(
      rows.map((row) => [
        w.manager.id,
        now,
        null,
        false,
        [row.keychainId],
        [],
        [row.id],
        { recipientId: w.contact.id, fromDate, toDate },
      ]),
    )
  })

  it('invites a person by address: made once, in the language asked, with an invitation in each mail', async () => {
    const w = await world()
    const email = uniqueEmail('guest')
    const response = await authorize(
      w.manager.cookie,
      request({ ids: [w.keychains[0]!.id, w.keychains[1]!.id] }, { kind: 'email', email, locale: 'en' }),
    )
    expect(response.status).toBe(201)
    const [guest] = await t.db.select().from(users).where(eq(users.email, email))
    expect(guest).toMatchObject({ locale: 'en' })
    const rows = await t.db.select().from(transfers).where(eq(transfers.organizationId, w.organization.id))
    expect(rows.map((row) => row.recipientId)).toEqual([guest!.id, guest!.id])
    const mails = await jobsOf(w.organization.id, 'mail')
    const invited = transferAuthorizedMail({
      to: email,
      locale: 'en',
      publicUrl: TEST_PUBLIC_URL,
      transferId: rows[0]!.id,
      organizationName: w.organization.name,
      keychainName: rows[0]!.keychainName,
      fromDate: rows[0]!.fromDate,
      toDate: rows[0]!.toDate,
      authorizerName: w.manager.profile.email,
      address: {
        line1: w.organization.addressLine1,
        line2: w.organization.addressLine2,
        city: w.organization.city,
        postalCode: w.organization.postalCode,
        country: w.organization.country,
      },
      invited: true,
    })
    expect(mails.map((job) => job.payload)).toContainEqual(mailJob(invited, { now: t.clock.now() }).payload)
  })

  it('takes today as the first day, refuses yesterday saying which field', async () => {
    const w = await world()
    const recipient = { kind: 'member', userId: w.contact.id }
    const past = await authorize(w.manager.cookie, request({ ids: [w.keychains[0]!.id] }, recipient, -1, 2))
    expect(past.status).toBe(400)
    const message = 'The from-date must be today or later.'
    expect(await error(past)).toMatchObject({
      code: 'validation_failed',
      message,
      issues: [{ path: 'fromDate', message }],
    })
    expect(
      (await authorize(w.manager.cookie, request({ ids: [w.keychains[0]!.id] }, recipient, 0, 2))).status,
    ).toBe(201)
  })

  it('a filter matching nothing authorizes nothing', async () => {
    const w = await world()
    const response = await authorize(
      w.manager.cookie,
      request({ filter: { q: 'nothing like it' } }, { kind: 'member', userId: w.contact.id }),
    )
    expect(await response.json()).toEqual({ count: 0, unchanged: 0, transferIds: [] })
    expect(await jobsOf(w.organization.id, 'mail')).toEqual([])
  })

  it('names at most three keychains the recipient holds already (in id order, as locked), and the count', async () => {
    const w = await world()
    const recipient = { kind: 'member', userId: w.member.id }
    const inIdOrder = (count: number) =>
      w.keychains
        .slice(0, count)
        .sort((a, b) => (a.id < b.id ? -1 : 1))
        .slice(0, 3)
        .map((k) => k.name)
        .join(', ')
    const three = await authorize(
      w.manager.cookie,
      request({ ids: w.keychains.slice(0, 3).map((k) => k.id) }, recipient),
    )
    expect(three.status).toBe(409)
    expect((await error(three)).message).toBe(
      `This person already holds 3 of these keychains (${inIdOrder(3)}). Nothing was authorized.`,
    )
    const four = await authorize(
      w.manager.cookie,
      request({ ids: w.keychains.slice(0, 4).map((k) => k.id) }, recipient),
    )
    expect((await error(four)).message).toBe(
      `This person already holds 4 of these keychains (${inIdOrder(4)}). Nothing was authorized.`,
    )
  })

  it('fills the month’s allowance exactly, then refuses one more with what is left and when it renews', async () => {
    const w = await world(4)
    const recipient = { kind: 'member', userId: w.contact.id }
    await makeTransfer(t, {
      organizationId: w.organization.id,
      keychainId: w.keychains[4]!.id,
      recipientId: w.contact.id,
    })
    const over = await authorize(
      w.manager.cookie,
      request({ ids: w.keychains.slice(0, 4).map((k) => k.id) }, recipient),
    )
    expect(over.status).toBe(402)
    const renewsAt = monthBoundsIn(ZONE, t.clock.now()).end
    expect(await error(over)).toMatchObject({
      code: 'transfer_allowance_exceeded',
      message: `The plan allows 4 transfers a month and 1 are used: 3 more can be authorized until ${formatDayIn('en', renewsAt, ZONE)}, not 4. Nothing was authorized.`,
      used: 1,
      allowance: 4,
      renewsAt: renewsAt.toISOString(),
    })
    const fits = await authorize(
      w.manager.cookie,
      request({ ids: w.keychains.slice(0, 3).map((k) => k.id) }, recipient),
    )
    expect(fits.status).toBe(201)
    // Over the allowance already (a plan lowered since): none left, never fewer than none.
    await subscribe(t, w.organization.id, 2)
    const none = await authorize(w.manager.cookie, request({ ids: [w.keychains[3]!.id] }, recipient))
    expect((await error(none)).message).toBe(
      `The plan allows 2 transfers a month and 4 are used: 0 more can be authorized until ${formatDayIn('en', renewsAt, ZONE)}, not 1. Nothing was authorized.`,
    )
  })

  it('says what is left of the plan in the manager’s language', async () => {
    const { organization } = await organizationWithAdmin(t, 'Agence')
    await subscribe(t, organization.id, 1)
    const manager = await signedInMember(t, organization.id, 'MANAGER')
    const contact = await signedInMember(t, organization.id, 'CONTACT')
    const ids = [
      (await makeKeychain(t, organization.id, 'A')).id,
      (await makeKeychain(t, organization.id, 'B')).id,
    ]
    const response = await authorize(manager.cookie, request({ ids }, { kind: 'member', userId: contact.id }))
    const renewsAt = monthBoundsIn(ZONE, t.clock.now()).end
    expect((await error(response)).message).toBe(
      `L’abonnement permet 1 transferts par mois et 0 sont utilisés : 1 peuvent encore être autorisés jusqu’au ${formatDayIn('fr', renewsAt, ZONE)}, pas 2. Rien n’a été autorisé.`,
    )
  })

  it('an organization that does not exist (called directly): 404, nothing read further', async () => {
    const w = await world()
    const [actor] = await t.db.select().from(users).where(eq(users.id, w.manager.id))
    await expect(
      t.db.transaction((tx) =>
        authorizeTransfers(t.deps, tx, {
          organizationId: randomUUID(),
          actor: actor!,
          selection: { ids: [w.keychains[0]!.id] },
          recipient: { kind: 'member', userId: w.contact.id },
          fromDate: parisDay(t, 1),
          toDate: parisDay(t, 2),
          now: t.clock.now(),
        }),
      ),
    ).rejects.toMatchObject({ status: 404, code: 'not_found', message: 'No such organization.' })
  })

  it('needs an active subscription (402), in the manager’s language', async () => {
    const { organization } = await organizationWithAdmin(t, 'Sans abonnement')
    const manager = await signedInMember(t, organization.id, 'MANAGER')
    const contact = await signedInMember(t, organization.id, 'CONTACT')
    const keychain = await makeKeychain(t, organization.id, 'Cave')
    const response = await authorize(
      manager.cookie,
      request({ ids: [keychain.id] }, { kind: 'member', userId: contact.id }),
    )
    expect(response.status).toBe(402)
    expect(await error(response)).toMatchObject({ code: 'subscription_required' })
    expect(await t.db.select().from(transfers).where(eq(transfers.organizationId, organization.id))).toEqual(
      [],
    )
  })
})
