import { and, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { makeKeychain, organizationWithAdmin, signedInMember } from '../../../tests/server/fixtures.ts'
import { setupTestAppAtEpoch, uniqueEmail } from '../../../tests/server/harness.ts'
import {
  authorize,
  dates,
  makeTransfer,
  pickup,
  toMember,
  transferWorld,
} from '../../../tests/server/transfers.ts'
import { memberships, users } from '../../db/schema.ts'
import { transfersUsedThisMonth } from '../subscriptions/service.ts'

const t = setupTestAppAtEpoch({ clearMail: true })

describe('POST /keychains/{id}/transfers', () => {
  it('authorizes a SCHEDULED transfer on the Paris calendar and mails the recipient in French', async () => {
    const { organization, admin, contact, keychain } = await transferWorld(t)
    const response = await authorize(t, admin.cookie, keychain.id, dates(toMember(contact.id)))
    expect(response.status).toBe(201)
    const transfer = await response.json()
    expect(transfer).toMatchObject({
      organizationId: organization.id,
      organizationName: 'Agence',
      keychain: { id: keychain.id, name: 'Cave' },
      recipient: { id: contact.id, email: contact.email },
      authorizedBy: { id: admin.id },
      fromDate: '2030-01-15',
      toDate: '2030-01-17',
      startsAt: '2030-01-14T23:00:00.000Z',
      endsAt: '2030-01-16T23:00:00.000Z',
      status: 'SCHEDULED',
      expired: false,
      expiresAt: '2030-01-16T23:00:00.000Z',
      pickupAddress: { line1: '1 rue de la Paix', city: 'Paris', postalCode: '75002', country: 'FR' },
      pickups: [],
      next: null,
      refusal: 'not_recipient',
      cancelledAt: null,
      chasedAt: null,
      extension: null,
    })
    const mail = t.mail.last(contact.email)!
    expect(mail.subject).toBe('Le trousseau « Cave » vous attend à partir du 15 janvier 2030')
    expect(mail.text).toContain(
      `${admin.email} (Agence) vous autorise à récupérer le trousseau « Cave » entre le 15 janvier 2030 et le 16 janvier 2030. Il est à rendre le 17 janvier 2030.`,
    )
    expect(mail.text).toContain(
      'Récupérez-le et rendez-le à cette adresse :\n1 rue de la Paix\n75002 Paris\nFrance',
    )
    expect(mail.text).toContain(`${t.config.publicUrl}/app/transfers/requests/${transfer.id}`)
    expect(mail.text).not.toContain('connectez-vous')
    expect(mail.html).toContain(`href="${t.config.publicUrl}/app/transfers/requests/${transfer.id}"`)
    // The allowance counts it.
    const subscription = await (
      await t.get(`/api/organizations/${organization.id}/subscription`, { cookie: admin.cookie })
    ).json()
    expect(subscription.subscription.transfersUsedThisMonth).toBe(1)
  })

  it('mails an English-speaking recipient in English, with the /en link', async () => {
    const { organization, admin, keychain } = await transferWorld(t)
    const email = uniqueEmail('en')
    const english = await t.signIn(email, { locale: 'en' })
    await t.db.insert(memberships).values({
      userId: english.profile.id,
      organizationId: organization.id,
      role: 'MEMBER',
      status: 'ACTIVE',
      createdAt: t.clock.now(),
    })
    await t.db.update(users).set({ firstName: 'Ada', lastName: 'Admin' }).where(eq(users.id, admin.id))
    const response = await authorize(t, admin.cookie, keychain.id, dates(toMember(english.profile.id)))
    const { id } = await response.json()
    const mail = t.mail.last(email)!
    expect(mail.subject).toBe('The keychain “Cave” is waiting for you from 15 January 2030')
    expect(mail.text).toContain(
      'Ada Admin of Agence authorized you to pick up the keychain “Cave” between 15 January 2030 and 16 January 2030. It is due back on 17 January 2030.',
    )
    expect(mail.text).toContain(
      'Pick it up and bring it back at this address:\n1 rue de la Paix\n75002 Paris\nFrance',
    )
    expect(mail.text).toContain(`${t.config.publicUrl}/en/app/transfers/requests/${id}`)
  })

  it('invites an unknown address as INVITED CONTACT in the same step: one mail, the transfer’s, in the asked language', async () => {
    const { organization, admin, keychain } = await transferWorld(t)
    const email = uniqueEmail('guest')
    const response = await authorize(
      t,
      admin.cookie,
      keychain.id,
      dates({ kind: 'email', email: `  ${email.toUpperCase()} `, locale: 'en' }),
    )
    expect(response.status).toBe(201)
    const transfer = await response.json()
    const [account] = await t.db.select().from(users).where(eq(users.email, email))
    expect(account).toMatchObject({ locale: 'en', signedInAt: null })
    expect(transfer.recipient).toEqual({ id: account!.id, email, firstName: '', lastName: '' })
    const [membership] = await t.db
      .select()
      .from(memberships)
      .where(and(eq(memberships.userId, account!.id), eq(memberships.organizationId, organization.id)))
    expect(membership).toMatchObject({ role: 'CONTACT', status: 'INVITED' })
    expect(t.mail.to(email)).toHaveLength(1)
    expect(t.mail.last(email)!.text).toContain(`sign in to Trousseau with this e-mail address (${email})`)
  })

  it('takes a member’s address as that member, and hides the names of an existing account it invites', async () => {
    const { organization, admin, member, keychain } = await transferWorld(t)
    const other = await makeKeychain(t, organization.id, 'Garage')
    const byAddress = await authorize(
      t,
      admin.cookie,
      other.id,
      dates({ kind: 'email', email: member.email }),
    )
    expect((await byAddress.json()).recipient.id).toBe(member.id)
    // The member's mail is in their language (French here): no invitation to sign in, in either language.
    const mail = t.mail.last(member.email)!
    expect(mail.subject).toContain('« Garage »')
    expect(mail.text).not.toContain('sign in to Trousseau')
    expect(mail.text).not.toContain('connectez-vous à Trousseau')

    const stranger = await organizationWithAdmin(t, 'Elsewhere')
    await t.db
      .update(users)
      .set({ firstName: 'Secret', lastName: 'Name' })
      .where(eq(users.id, stranger.admin.id))
    const invited = await authorize(
      t,
      admin.cookie,
      keychain.id,
      dates({ kind: 'email', email: stranger.admin.email }),
    )
    expect(invited.status).toBe(201)
    expect((await invited.json()).recipient).toEqual({
      id: stranger.admin.id,
      email: stranger.admin.email,
      firstName: '',
      lastName: '',
    })
  })

  it('refuses a recipient who is not a member (400), a DISABLED one (400), or the current custodian (409)', async () => {
    const { organization, admin, member, keychain } = await transferWorld(t)
    const outsider = await organizationWithAdmin(t, 'Outside')
    const notMember = await authorize(t, admin.cookie, keychain.id, dates(toMember(outsider.admin.id)))
    expect(notMember.status).toBe(400)
    expect(await notMember.json()).toMatchObject({
      error: {
        code: 'validation_failed',
        message: 'This person is not a member of the organization.',
        issues: [{ path: 'recipient.userId' }],
      },
    })
    const disabled = await signedInMember(t, organization.id, 'MEMBER', { status: 'DISABLED' })
    expect((await authorize(t, admin.cookie, keychain.id, dates(toMember(disabled.id)))).status).toBe(400)
    const byEmail = await authorize(
      t,
      admin.cookie,
      keychain.id,
      dates({ kind: 'email', email: disabled.email }),
    )
    expect(byEmail.status).toBe(400)
    expect((await byEmail.json()).error.issues[0].path).toBe('recipient.email')
    const custodian = await authorize(t, admin.cookie, keychain.id, dates(toMember(member.id)))
    expect(custodian.status).toBe(409)
    expect((await custodian.json()).error.code).toBe('conflict')
  })

  it('answers 400 with the field for bad dates, a past from-date, to ≤ from, an unknown kind, a bad address', async () => {
    const { admin, contact, keychain } = await transferWorld(t)
    const cases: Array<[unknown, string]> = [
      [dates(toMember(contact.id), '2030-1-15', '2030-01-17'), 'fromDate'],
      [dates(toMember(contact.id), '2030-01-15', '2030-02-30'), 'toDate'],
      [dates(toMember(contact.id), '2030-01-14', '2030-01-17'), 'fromDate'],
      [dates(toMember(contact.id), '2030-01-16', '2030-01-16'), 'toDate'],
      [dates(toMember(contact.id), '2030-01-17', '2030-01-16'), 'toDate'],
      [dates({ kind: 'team', userId: contact.id }), 'recipient.kind'],
      [dates({ kind: 'email', email: 'not-an-address' }), 'recipient.email'],
      [{ recipient: toMember(contact.id), fromDate: '2030-01-15' }, 'toDate'],
    ]
    for (const [body, path] of cases) {
      const response = await authorize(t, admin.cookie, keychain.id, body)
      expect(response.status, JSON.stringify(body)).toBe(400)
      const { error } = await response.json()
      expect(error.code).toBe('validation_failed')
      expect(error.issues.map((issue: { path: string }) => issue.path)).toContain(path)
    }
    expect(t.mail.to(contact.email)).toHaveLength(0)
  })

  it('reads "today" in Paris: at 23:30 UTC on 31 January the from-date may already be 1 February', async () => {
    t.clock.set('2030-01-31T23:30:00Z')
    const { admin, contact, keychain } = await transferWorld(t)
    const early = await authorize(
      t,
      admin.cookie,
      keychain.id,
      dates(toMember(contact.id), '2030-01-31', '2030-02-02'),
    )
    expect((await early.json()).error.issues[0].path).toBe('fromDate')
    const ok = await authorize(
      t,
      admin.cookie,
      keychain.id,
      dates(toMember(contact.id), '2030-02-01', '2030-02-02'),
    )
    expect(ok.status).toBe(201)
  })

  it('puts a window across the change to summer time on the Paris calendar', async () => {
    const { admin, contact, keychain } = await transferWorld(t)
    const response = await authorize(
      t,
      admin.cookie,
      keychain.id,
      dates(toMember(contact.id), '2030-03-31', '2030-04-01'),
    )
    expect(await response.json()).toMatchObject({
      startsAt: '2030-03-30T23:00:00.000Z',
      endsAt: '2030-03-31T22:00:00.000Z',
    })
  })

  it('answers 404 for another organization’s keychain', async () => {
    const { admin, contact } = await transferWorld(t)
    const other = await organizationWithAdmin(t, 'Other')
    const theirs = await makeKeychain(t, other.organization.id, 'Theirs')
    const response = await authorize(t, admin.cookie, theirs.id, dates(toMember(contact.id)))
    expect(response.status).toBe(404)
  })
})

describe('DELETE /transfers/{id}', () => {
  it('cancels a SCHEDULED transfer and mails the recipient in their language; cancelling again changes nothing', async () => {
    const { admin, contact, keychain } = await transferWorld(t)
    const { id } = await (await authorize(t, admin.cookie, keychain.id, dates(toMember(contact.id)))).json()
    t.clock.advance(60_000)
    const response = await t.delete(`/api/transfers/${id}`, { cookie: admin.cookie })
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({
      id,
      status: 'CANCELLED',
      cancelledAt: '2030-01-15T09:01:00.000Z',
      expiresAt: null,
      refusal: 'cancelled',
    })
    const mail = t.mail.last(contact.email)!
    expect(mail.subject).toBe('Transfert annulé : trousseau « Cave »')
    expect(mail.text).toContain(
      'Agence a annulé le transfert du trousseau « Cave » du 15 janvier 2030 au 17 janvier 2030.',
    )
    const mailsSent = t.mail.to(contact.email).length

    // The answer was lost and the client retries: the same cancelled transfer, no second mail.
    t.clock.advance(60_000)
    const again = await t.delete(`/api/transfers/${id}`, { cookie: admin.cookie })
    expect(again.status).toBe(200)
    expect(await again.json()).toMatchObject({
      id,
      status: 'CANCELLED',
      cancelledAt: '2030-01-15T09:01:00.000Z',
    })
    expect(t.mail.to(contact.email).length).toBe(mailsSent)
  })

  it('cancels an expired SCHEDULED transfer, never a TRANSFERRED one; another organization’s is a 404', async () => {
    const { organization, admin, contact, keychain } = await transferWorld(t)
    const expired = await makeTransfer(t, {
      organizationId: organization.id,
      keychainId: keychain.id,
      recipientId: contact.id,
      fromDate: '2030-01-10',
      toDate: '2030-01-12',
    })
    const before = await transfersUsedThisMonth(t.db, organization.id, t.clock.now())
    expect((await t.delete(`/api/transfers/${expired.id}`, { cookie: admin.cookie })).status).toBe(200)
    // Tidying away a transfer that expired unused does not give its place in the month back.
    expect(await transfersUsedThisMonth(t.db, organization.id, t.clock.now())).toBe(before)
    const out = await makeTransfer(t, {
      organizationId: organization.id,
      keychainId: keychain.id,
      recipientId: contact.id,
      status: 'TRANSFERRED',
    })
    const refused = await t.delete(`/api/transfers/${out.id}`, { cookie: admin.cookie })
    expect(refused.status).toBe(409)
    expect((await refused.json()).error.message).toContain('A TRANSFERRED transfer cannot be cancelled')
    const other = await transferWorld(t, { name: 'Other' })
    expect((await t.delete(`/api/transfers/${out.id}`, { cookie: other.admin.cookie })).status).toBe(404)
  })

  it('retries a refused cancellation mail: the cancellation stands, the mail goes later, once', async () => {
    const { admin, contact, keychain } = await transferWorld(t)
    const { id } = await (await authorize(t, admin.cookie, keychain.id, dates(toMember(contact.id)))).json()
    const send = t.mail.send
    t.mail.send = async () => {
      throw new Error(`SMTP refused ${contact.email}`)
    }
    try {
      expect((await t.delete(`/api/transfers/${id}`, { cookie: admin.cookie })).status).toBe(200)
    } finally {
      t.mail.send = send
    }
    const line = t.logLines.findLast((each) => each.includes('job failed, retried later'))!
    expect(line).not.toContain(contact.email)
    t.clock.advance(30_000)
    await t.runJobs()
    await t.runJobs()
    const cancellations = t.mail.to(contact.email).filter((mail) => mail.subject.includes('annulé'))
    expect(cancellations).toHaveLength(1)
  })
})

describe('keychains with transfers', () => {
  it('refuses deleting a keychain with an active transfer, and a manual hand-over while it is out', async () => {
    const { organization, admin, contact, member, keychain } = await transferWorld(t)
    const transfer = await (await authorize(t, admin.cookie, keychain.id, dates(toMember(contact.id)))).json()
    const deletion = await t.delete(`/api/keychains/${keychain.id}`, { cookie: admin.cookie })
    expect(deletion.status).toBe(409)
    expect((await deletion.json()).error.message).toContain('active transfer')

    expect((await pickup(t, contact.cookie, transfer.id)).status).toBe(201)
    const handOver = await t.patch(`/api/keychains/${keychain.id}`, {
      cookie: admin.cookie,
      json: { custodianId: member.id },
    })
    expect(handOver.status).toBe(409)
    const rename = await t.patch(`/api/keychains/${keychain.id}`, {
      cookie: admin.cookie,
      json: { name: 'Cellier' },
    })
    expect(rename.status).toBe(200)
    expect((await pickup(t, member.cookie, transfer.id)).status).toBe(201)

    // Over: the keychain may go; its transfers stay in the history and in the month's count.
    expect((await t.delete(`/api/keychains/${keychain.id}`, { cookie: admin.cookie })).status).toBe(204)
    const kept = await (await t.get(`/api/transfers/${transfer.id}`, { cookie: admin.cookie })).json()
    expect(kept).toMatchObject({ status: 'RETURNED', keychain: { id: keychain.id, name: 'Cave' } })
    expect(await transfersUsedThisMonth(t.db, organization.id, t.clock.now())).toBe(1)
  })
})
