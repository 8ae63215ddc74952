import { randomUUID } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { HOUR, TEST_EPOCH } from '../../../tests/server/clock.ts'
import { signedInMember } from '../../../tests/server/fixtures.ts'
import { setupTestAppAtEpoch, uniqueEmail } from '../../../tests/server/harness.ts'
import {
  authorize,
  dates,
  makeTransfer,
  scheduledTransfer,
  toMember,
  transferEvents,
  transferWorld,
} from '../../../tests/server/transfers.ts'
import { memberships, transfers, users } from '../../db/schema.ts'

/**
 * The rules of `POST /keychains/{id}/transfers` and `DELETE /transfers/{id}` (transfers/service.ts): each
 * refusal's status, code, message and field, what an authorization or a cancellation records, and who sees a
 * transfer.
 */
const t = setupTestAppAtEpoch({ clearMail: true })

const membershipsOf = (userId: string, organizationId: string) =>
  t.db
    .select()
    .from(memberships)
    .where(and(eq(memberships.userId, userId), eq(memberships.organizationId, organizationId)))

const validation = (path: string, message: string) => ({
  code: 'validation_failed',
  message,
  issues: [{ path, message }],
})

describe('authorizing a transfer: refusals', () => {
  it('refuses a from-date before today: 400 on fromDate', async () => {
    const { admin, contact, keychain } = await transferWorld(t)
    const response = await authorize(t, admin.cookie, keychain.id, dates(toMember(contact.id), '2030-01-14'))
    expect(response.status).toBe(400)
    expect((await response.json()).error).toEqual(
      validation('fromDate', 'The from-date must be today or later.'),
    )
  })

  it('refuses, by id, someone who is not a member, and a member whose membership is DISABLED: 400 on recipient.userId', async () => {
    const { organization, admin, keychain } = await transferWorld(t)
    const outsider = (await t.signIn(uniqueEmail())).profile
    const disabled = await signedInMember(t, organization.id, 'MEMBER', { status: 'DISABLED' })
    for (const userId of [outsider.id, disabled.id, randomUUID()]) {
      const response = await authorize(t, admin.cookie, keychain.id, dates(toMember(userId)))
      expect(response.status).toBe(400)
      expect((await response.json()).error).toEqual(
        validation('recipient.userId', 'This person is not a member of the organization.'),
      )
    }
  })

  it('refuses, by address, a member whose membership is DISABLED: 400 on recipient.email', async () => {
    const { organization, admin, keychain } = await transferWorld(t)
    const disabled = await signedInMember(t, organization.id, 'MEMBER', { status: 'DISABLED' })
    const response = await authorize(
      t,
      admin.cookie,
      keychain.id,
      dates({ kind: 'email', email: disabled.email }),
    )
    expect(response.status).toBe(400)
    expect((await response.json()).error).toEqual(
      validation('recipient.email', 'This person’s membership of the organization is disabled.'),
    )
  })

  it('refuses the person who holds the keychain: 409 conflict', async () => {
    const { admin, member, keychain } = await transferWorld(t)
    for (const recipient of [toMember(member.id), { kind: 'email', email: member.email }]) {
      const response = await authorize(t, admin.cookie, keychain.id, dates(recipient))
      expect(response.status).toBe(409)
      expect((await response.json()).error).toEqual({
        code: 'conflict',
        message: 'This person already holds the keychain.',
      })
    }
  })
})

describe('authorizing a transfer: what it records', () => {
  it('stores a SCHEDULED transfer by the caller and logs transfer.authorized with the recipient and dates', async () => {
    const { organization, admin, contact, keychain } = await transferWorld(t)
    const response = await authorize(t, admin.cookie, keychain.id, dates(toMember(contact.id)))
    expect(response.status).toBe(201)
    const { id } = await response.json()
    const [row] = await t.db.select().from(transfers).where(eq(transfers.id, id))
    expect(row).toMatchObject({
      organizationId: organization.id,
      keychainId: keychain.id,
      keychainName: 'Cave',
      recipientId: contact.id,
      authorizedById: admin.id,
      fromDate: '2030-01-15',
      toDate: '2030-01-17',
      status: 'SCHEDULED',
      createdAt: TEST_EPOCH,
      pickedUpAt: null,
      returnedAt: null,
      cancelledAt: null,
      chasedAt: null,
    })
    expect(await transferEvents(t, organization.id)).toEqual([
      {
        kind: 'transfer.authorized',
        actorId: admin.id,
        serverTime: TEST_EPOCH,
        clientTime: null,
        fromQueue: false,
        keychainIds: [keychain.id],
        transferIds: [id],
        payload: { recipientId: contact.id, fromDate: '2030-01-15', toDate: '2030-01-17' },
      },
    ])
  })

  it('takes an INVITED member by id as they are, without a second invitation', async () => {
    const { organization, admin, keychain } = await transferWorld(t)
    const invited = await signedInMember(t, organization.id, 'MEMBER', { status: 'INVITED' })
    const response = await authorize(t, admin.cookie, keychain.id, dates(toMember(invited.id)))
    expect(response.status).toBe(201)
    expect((await response.json()).recipient.id).toBe(invited.id)
    expect(await membershipsOf(invited.id, organization.id)).toMatchObject([
      { role: 'MEMBER', status: 'INVITED' },
    ])
  })

  it('invites an address in French when no language is asked for', async () => {
    const { admin, keychain } = await transferWorld(t)
    const email = uniqueEmail('guest')
    const response = await authorize(t, admin.cookie, keychain.id, dates({ kind: 'email', email }))
    expect(response.status).toBe(201)
    const [account] = await t.db.select().from(users).where(eq(users.email, email))
    expect(account).toMatchObject({ locale: 'fr', createdAt: TEST_EPOCH, lastSeenAt: TEST_EPOCH })
    expect(t.mail.last(email)!.subject).toBe('Le trousseau « Cave » vous attend à partir du 15 janvier 2030')
  })

  it('invites an existing account of no membership here as INVITED CONTACT, keeping the account', async () => {
    const { organization, admin, keychain } = await transferWorld(t)
    const email = uniqueEmail('known')
    const known = (await t.signIn(email, { locale: 'en' })).profile
    const response = await authorize(
      t,
      admin.cookie,
      keychain.id,
      dates({ kind: 'email', email, locale: 'fr' }),
    )
    expect(response.status).toBe(201)
    expect((await response.json()).recipient.id).toBe(known.id)
    expect(await t.db.select().from(users).where(eq(users.email, email))).toMatchObject([
      { id: known.id, locale: 'en' },
    ])
    expect(await membershipsOf(known.id, organization.id)).toMatchObject([
      { role: 'CONTACT', status: 'INVITED' },
    ])
  })

  it('stands when its mail fails: 201, the mail goes once the SMTP server takes it, the log holds ids only', async () => {
    const { organization, admin, contact, keychain } = await transferWorld(t)
    const send = t.mail.send
    t.mail.send = async () => {
      throw new Error(`SMTP refused ${contact.email}`)
    }
    try {
      const response = await authorize(t, admin.cookie, keychain.id, dates(toMember(contact.id)))
      expect(response.status).toBe(201)
    } finally {
      t.mail.send = send
    }
    expect(t.mail.to(contact.email)).toHaveLength(0)
    const line = t.logLines.find((each) => each.includes('job failed, retried later'))
    expect(line).toContain('"kind":"mail"')
    expect(line).not.toContain(contact.email)
    expect(await transferEvents(t, organization.id)).toHaveLength(1)
    t.clock.advance(30_000)
    await t.runJobs()
    expect(t.mail.to(contact.email).map((mail) => mail.subject)).toEqual([
      expect.stringContaining(keychain.name),
    ])
  })
})

describe('cancelling a transfer', () => {
  it('logs transfer.cancelled once, by the caller; cancelling again logs and mails nothing more', async () => {
    const { organization, admin, contact, keychain, transfer } = await scheduledTransfer(t)
    t.clock.advance(HOUR)
    expect((await t.delete(`/api/transfers/${transfer.id}`, { cookie: admin.cookie })).status).toBe(200)
    const [row] = await t.db.select().from(transfers).where(eq(transfers.id, transfer.id))
    expect(row).toMatchObject({ status: 'CANCELLED', cancelledAt: t.clock.now() })
    expect(t.mail.to(contact.email)).toHaveLength(1)
    expect(await transferEvents(t, organization.id)).toEqual([
      {
        kind: 'transfer.cancelled',
        actorId: admin.id,
        serverTime: t.clock.now(),
        clientTime: null,
        fromQueue: false,
        keychainIds: [keychain.id],
        transferIds: [transfer.id],
        payload: {},
      },
    ])
    t.clock.advance(HOUR)
    const again = await t.delete(`/api/transfers/${transfer.id}`, { cookie: admin.cookie })
    expect(again.status).toBe(200)
    expect(await transferEvents(t, organization.id)).toHaveLength(1)
    expect(t.mail.to(contact.email)).toHaveLength(1)
  })

  it('tells the recipient the keychain’s name as it is now, renamed since the authorization', async () => {
    const { admin, contact, keychain, transfer } = await scheduledTransfer(t)
    const renamed = await t.patch(`/api/keychains/${keychain.id}`, {
      cookie: admin.cookie,
      json: { name: 'Cave B' },
    })
    expect(renamed.status).toBe(200)
    expect((await t.delete(`/api/transfers/${transfer.id}`, { cookie: admin.cookie })).status).toBe(200)
    expect(t.mail.last(contact.email)!.subject).toContain('« Cave B »')
  })

  it('refuses a transfer out or over, naming its status now: 409 invalid_transition, nothing allowed', async () => {
    const { organization, admin, contact, keychain } = await transferWorld(t)
    const make = (status: 'TRANSFERRED' | 'RETURNED', fromDate: string, toDate: string) =>
      makeTransfer(t, {
        organizationId: organization.id,
        keychainId: keychain.id,
        recipientId: contact.id,
        status,
        fromDate,
        toDate,
      })
    const returning = await make('TRANSFERRED', '2030-01-10', '2030-01-12')
    const returned = await make('RETURNED', '2030-01-05', '2030-01-07')
    for (const [transfer, status] of [
      [returning, 'RETURNING'],
      [returned, 'RETURNED'],
    ] as const) {
      const response = await t.delete(`/api/transfers/${transfer.id}`, { cookie: admin.cookie })
      expect(response.status).toBe(409)
      expect((await response.json()).error).toEqual({
        code: 'invalid_transition',
        message: `A ${status} transfer cannot be cancelled: only a SCHEDULED one can. Allowed next: none.`,
        allowed: [],
      })
    }
    expect(await transferEvents(t, organization.id)).toEqual([])
    expect(t.mail.to(contact.email)).toHaveLength(0)
  })

  it('answers 404 No such transfer. for an unknown one', async () => {
    const { admin } = await transferWorld(t)
    const response = await t.delete(`/api/transfers/${randomUUID()}`, { cookie: admin.cookie })
    expect(response.status).toBe(404)
    expect((await response.json()).error).toEqual({ code: 'not_found', message: 'No such transfer.' })
  })
})

describe('who sees a transfer (GET /transfers/{id})', () => {
  it('shows it to its recipient while a member, INVITED included, and no longer once DISABLED', async () => {
    const { organization, keychain } = await transferWorld(t)
    const recipient = await signedInMember(t, organization.id, 'CONTACT', { status: 'INVITED' })
    const transfer = await makeTransfer(t, {
      organizationId: organization.id,
      keychainId: keychain.id,
      recipientId: recipient.id,
    })
    const seen = await t.get(`/api/transfers/${transfer.id}`, { cookie: recipient.cookie })
    expect(seen.status).toBe(200)
    expect(await seen.json()).toMatchObject({ id: transfer.id, next: 'PICKUP', refusal: null })
    await t.db.update(memberships).set({ status: 'DISABLED' }).where(eq(memberships.userId, recipient.id))
    const hidden = await t.get(`/api/transfers/${transfer.id}`, { cookie: recipient.cookie })
    expect(hidden.status).toBe(404)
    expect((await hidden.json()).error).toEqual({ code: 'not_found', message: 'No such transfer.' })
  })

  it('hides it from a recipient whose membership is gone (removed from the organization)', async () => {
    const { organization, contact, transfer } = await scheduledTransfer(t)
    expect((await t.get(`/api/transfers/${transfer.id}`, { cookie: contact.cookie })).status).toBe(200)
    await t.db
      .delete(memberships)
      .where(and(eq(memberships.userId, contact.id), eq(memberships.organizationId, organization.id)))
    const hidden = await t.get(`/api/transfers/${transfer.id}`, { cookie: contact.cookie })
    expect(hidden.status).toBe(404)
  })

  it('shows it to every member who reads transfers, with what they may do; not to a DISABLED one', async () => {
    const { organization, admin, member, keychain, contact } = await transferWorld(t)
    const manager = await signedInMember(t, organization.id, 'MANAGER')
    const disabled = await signedInMember(t, organization.id, 'ADMIN', { status: 'DISABLED' })
    const transfer = await makeTransfer(t, {
      organizationId: organization.id,
      keychainId: keychain.id,
      recipientId: contact.id,
    })
    for (const each of [admin, manager, member]) {
      const response = await t.get(`/api/transfers/${transfer.id}`, { cookie: each.cookie })
      expect(response.status).toBe(200)
      expect(await response.json()).toMatchObject({ next: null, refusal: 'not_recipient' })
    }
    expect((await t.get(`/api/transfers/${transfer.id}`, { cookie: disabled.cookie })).status).toBe(404)
  })
})
