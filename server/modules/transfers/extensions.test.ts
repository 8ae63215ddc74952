import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { beforeEach, describe, expect, it } from 'vitest'
import { makeKeychain, signedInMember } from '../../../tests/server/fixtures.ts'
import { setupTestAppAtEpoch } from '../../../tests/server/harness.ts'
import {
  authorize,
  dates,
  makeTransfer,
  pickup,
  toMember,
  transferEvents,
  transferWorld,
} from '../../../tests/server/transfers.ts'
import { instant, walk } from '../../../tests/server/walk.ts'
import { jobs, transferExtensions, transfers, users } from '../../db/schema.ts'
import { transfersUsedThisMonth } from '../subscriptions/service.ts'

const t = setupTestAppAtEpoch({ clearMail: true })
beforeEach(async () => {
  await t.db.delete(jobs)
})

/** A transfer of "Cave" to the contact (reading English) from the 15th to the 17th, picked up; a MANAGER too. */
async function heldUntil17() {
  const world = await transferWorld(t)
  await t.db.update(users).set({ locale: 'en' }).where(eq(users.id, world.contact.id))
  const manager = await signedInMember(t, world.organization.id, 'MANAGER')
  const created = await authorize(t, world.admin.cookie, world.keychain.id, dates(toMember(world.contact.id)))
  const transfer = (await created.json()) as { id: string }
  expect((await pickup(t, world.contact.cookie, transfer.id)).status).toBe(201)
  t.mail.clear()
  return { ...world, manager, transfer }
}

const ask = (cookie: string, id: string, toDate: string, key: string = randomUUID()) =>
  t.post(`/api/transfers/${id}/extensions`, { cookie, json: { toDate }, headers: { 'idempotency-key': key } })

const decide = (cookie: string, id: string, extensionId: string, decision: 'approve' | 'refuse') =>
  t.post(`/api/transfers/${id}/extensions/${extensionId}`, { cookie, json: { decision } })

describe('asking for more time', () => {
  it('records the request, mails the admins and managers in their language, and counts once per key', async () => {
    const { organization, admin, manager, member, contact, transfer } = await heldUntil17()
    const key = randomUUID()
    const response = await ask(contact.cookie, transfer.id, '2030-01-20', key)
    expect(response.status).toBe(201)
    const body = await response.json()
    expect(body.toDate).toBe('2030-01-17')
    expect(body.extension).toMatchObject({
      status: 'PENDING',
      toDate: '2030-01-20',
      previousToDate: '2030-01-17',
    })
    expect(t.mail.to(admin.email).map((mail) => mail.subject)).toEqual([
      `${contact.email} demande à garder le trousseau « Cave » jusqu’au 20 janvier 2030`,
    ])
    expect(t.mail.to(manager.email)).toHaveLength(1)
    expect(t.mail.to(member.email)).toHaveLength(0)

    const replay = await ask(contact.cookie, transfer.id, '2030-01-20', key)
    expect(replay.status).toBe(201)
    expect((await replay.json()).extension.id).toBe(body.extension.id)
    expect((await ask(contact.cookie, transfer.id, '2030-01-21', key)).status).toBe(422)
    expect(
      await t.db.select().from(transferExtensions).where(eq(transferExtensions.transferId, transfer.id)),
    ).toHaveLength(1)
    expect(t.mail.to(admin.email)).toHaveLength(1)
    expect((await transferEvents(t, organization.id)).map((event) => event.kind)).toContain(
      'transfer.extension_requested',
    )
  })

  it('refuses a day not after the to-date, anyone but the holder, a second request, and a stranger', async () => {
    const { admin, contact, transfer } = await heldUntil17()
    const early = await ask(contact.cookie, transfer.id, '2030-01-17')
    expect(early.status).toBe(400)
    expect((await early.json()).error.issues).toEqual([
      { path: 'toDate', message: 'Choose a day after 17 January 2030.' },
    ])
    const byAdmin = await ask(admin.cookie, transfer.id, '2030-01-20')
    expect(byAdmin.status).toBe(409)
    expect((await byAdmin.json()).error).toMatchObject({ code: 'extension_refused', reason: 'not_recipient' })
    expect((await ask(contact.cookie, transfer.id, '2030-01-20')).status).toBe(201)
    const second = await ask(contact.cookie, transfer.id, '2030-01-22')
    expect((await second.json()).error).toMatchObject({ code: 'extension_refused', reason: 'pending' })
    const stranger = await transferWorld(t, { name: 'Autre' })
    expect((await ask(stranger.contact.cookie, transfer.id, '2030-01-22')).status).toBe(404)
  })

  it('refuses once the keychain is back', async () => {
    const { member, contact, transfer } = await heldUntil17()
    expect((await pickup(t, member.cookie, transfer.id)).status).toBe(201)
    const late = await ask(contact.cookie, transfer.id, '2030-01-20')
    expect((await late.json()).error).toMatchObject({ code: 'extension_refused', reason: 'closed' })
  })

  it('takes a request before the pickup while the window is open, not once it has passed', async () => {
    const world = await transferWorld(t)
    const created = await authorize(
      t,
      world.admin.cookie,
      world.keychain.id,
      dates(toMember(world.contact.id)),
    )
    const transfer = (await created.json()) as { id: string }
    const open = await ask(world.contact.cookie, transfer.id, '2030-01-20')
    expect(open.status).toBe(201)
    expect((await open.json()).extension).toMatchObject({ status: 'PENDING', toDate: '2030-01-20' })

    const later = await authorize(
      t,
      world.admin.cookie,
      world.keychain.id,
      dates(toMember(world.contact.id), '2030-01-18', '2030-01-19'),
    )
    const missed = (await later.json()) as { id: string }
    // Never picked up: the window ends at 00:00 on the 19th.
    t.clock.set(instant('Europe/Paris', '2030-01-19 00'))
    const closed = await ask(world.contact.cookie, missed.id, '2030-01-21')
    expect(closed.status).toBe(409)
    expect((await closed.json()).error).toMatchObject({ code: 'extension_refused', reason: 'closed' })
  })

  it('asks for a day after today when the keychain is already late', async () => {
    const { contact, transfer } = await heldUntil17()
    t.clock.set(instant('Europe/Paris', '2030-01-19 10'))
    for (const toDate of ['2030-01-18', '2030-01-19']) {
      const refused = await ask(contact.cookie, transfer.id, toDate)
      expect(refused.status).toBe(400)
      expect((await refused.json()).error.issues).toEqual([
        { path: 'toDate', message: 'Choose a day after 19 January 2030.' },
      ])
    }
    const asked = await ask(contact.cookie, transfer.id, '2030-01-20')
    expect(asked.status).toBe(201)
  })

  it('logs the request with its transfer, keychain, asker and dates', async () => {
    const { organization, contact, keychain, transfer } = await heldUntil17()
    expect((await ask(contact.cookie, transfer.id, '2030-01-20')).status).toBe(201)
    const events = await transferEvents(t, organization.id)
    expect(events.at(-1)).toMatchObject({
      kind: 'transfer.extension_requested',
      actorId: contact.id,
      serverTime: t.clock.now(),
      fromQueue: false,
      keychainIds: [keychain.id],
      transferIds: [transfer.id],
      payload: { toDate: '2030-01-20', previousToDate: '2030-01-17' },
    })
  })
})

describe('answering a request for more time', () => {
  it('moves the window on approval, charges no transfer, tells the holder, and the reminders follow', async () => {
    const { organization, manager, contact, transfer } = await heldUntil17()
    const { extension } = await (await ask(contact.cookie, transfer.id, '2030-01-20')).json()
    const used = await transfersUsedThisMonth(t.db, organization.id, t.clock.now())
    const approved = await decide(manager.cookie, transfer.id, extension.id, 'approve')
    expect(approved.status).toBe(200)
    const body = await approved.json()
    expect(body).toMatchObject({
      toDate: '2030-01-20',
      endsAt: instant('Europe/Paris', '2030-01-20 00').toISOString(),
    })
    expect(body.extension).toMatchObject({ status: 'APPROVED', decidedAt: t.clock.now().toISOString() })
    expect(await transfersUsedThisMonth(t.db, organization.id, t.clock.now())).toBe(used)
    expect(t.mail.to(contact.email).map((mail) => mail.subject)).toEqual([
      'More time granted: the keychain “Cave”',
    ])
    const seen = await t.get(`/api/transfers/${transfer.id}`, { cookie: contact.cookie })
    expect((await seen.json()).toDate).toBe('2030-01-20')
    expect((await transferEvents(t, organization.id)).at(-1)).toMatchObject({
      kind: 'transfer.extended',
      actorId: manager.id,
      keychainIds: [body.keychain.id],
      transferIds: [transfer.id],
      payload: { toDate: '2030-01-20', previousToDate: '2030-01-17' },
    })

    t.mail.clear()
    const sent = (await walk(t, '2030-01-21 23')).filter((mail) => mail.to === contact.email)
    expect(sent.map(({ at, subject }) => ({ at, subject }))).toEqual([
      { at: '2030-01-19 09', subject: 'Tomorrow: bring back the keychain “Cave”' },
      { at: '2030-01-20 09', subject: 'Today: bring back the keychain “Cave”' },
      { at: '2030-01-21 09', subject: 'Overdue: the keychain “Cave”' },
    ])
  })

  it('answers a repeated approval with the transfer, and refuses to turn it into a refusal', async () => {
    const { manager, contact, transfer } = await heldUntil17()
    const { extension } = await (await ask(contact.cookie, transfer.id, '2030-01-20')).json()
    expect((await decide(manager.cookie, transfer.id, extension.id, 'approve')).status).toBe(200)
    expect((await decide(manager.cookie, transfer.id, extension.id, 'approve')).status).toBe(200)
    expect(t.mail.to(contact.email)).toHaveLength(1)
    const flip = await decide(manager.cookie, transfer.id, extension.id, 'refuse')
    expect(flip.status).toBe(409)
    expect((await flip.json()).error.code).toBe('conflict')
  })

  it('answers a repeated refusal with the transfer, and refuses to turn it into an approval', async () => {
    const { manager, contact, transfer } = await heldUntil17()
    const { extension } = await (await ask(contact.cookie, transfer.id, '2030-01-20')).json()
    expect((await decide(manager.cookie, transfer.id, extension.id, 'refuse')).status).toBe(200)
    const again = await decide(manager.cookie, transfer.id, extension.id, 'refuse')
    expect(again.status).toBe(200)
    expect(await again.json()).toMatchObject({ toDate: '2030-01-17', extension: { status: 'REFUSED' } })
    expect(t.mail.to(contact.email)).toHaveLength(1)
    const flip = await decide(manager.cookie, transfer.id, extension.id, 'approve')
    expect(flip.status).toBe(409)
    expect((await flip.json()).error.code).toBe('conflict')
  })

  it('writes nothing and wakes no job runner when it answers again', async () => {
    const { manager, contact, transfer } = await heldUntil17()
    const { extension } = await (await ask(contact.cookie, transfer.id, '2030-01-20')).json()
    expect((await decide(manager.cookie, transfer.id, extension.id, 'approve')).status).toBe(200)
    t.mail.clear()
    const before = await t.db.select().from(jobs)
    // The eve-of-return reminder comes due; only the runner's next round sends it.
    t.clock.set(instant('Europe/Paris', '2030-01-19 09'))
    expect((await decide(manager.cookie, transfer.id, extension.id, 'approve')).status).toBe(200)
    expect(await t.db.select().from(jobs)).toEqual(before)
    expect(t.mail.messages).toEqual([])
    await t.runJobs()
    expect(t.mail.to(contact.email).map((mail) => mail.subject)).toEqual([
      'Tomorrow: bring back the keychain “Cave”',
    ])
  })

  it('keeps the window on refusal and tells the holder', async () => {
    const { organization, admin, contact, keychain, transfer } = await heldUntil17()
    const { extension } = await (await ask(contact.cookie, transfer.id, '2030-01-20')).json()
    const refused = await decide(admin.cookie, transfer.id, extension.id, 'refuse')
    expect(refused.status).toBe(200)
    expect(await refused.json()).toMatchObject({ toDate: '2030-01-17', extension: { status: 'REFUSED' } })
    expect(t.mail.to(contact.email).map((mail) => mail.subject)).toEqual([
      'More time refused: the keychain “Cave”',
    ])
    expect((await transferEvents(t, organization.id)).at(-1)).toMatchObject({
      kind: 'transfer.extension_refused',
      actorId: admin.id,
      keychainIds: [keychain.id],
      transferIds: [transfer.id],
      payload: { toDate: '2030-01-20', previousToDate: '2030-01-17' },
    })
    // A new request may follow a refusal.
    expect((await ask(contact.cookie, transfer.id, '2030-01-19')).status).toBe(201)
  })

  it('cannot approve over the next transfer of the keychain: 409 transfer_overlap, the request still waits', async () => {
    const { admin, member, contact, keychain, transfer } = await heldUntil17()
    const next = await authorize(
      t,
      admin.cookie,
      keychain.id,
      dates(toMember(member.id), '2030-01-19', '2030-01-21'),
    )
    expect(next.status).toBe(201)
    const { extension } = await (await ask(contact.cookie, transfer.id, '2030-01-20')).json()
    const blocked = await decide(admin.cookie, transfer.id, extension.id, 'approve')
    expect(blocked.status).toBe(409)
    expect((await blocked.json()).error.code).toBe('transfer_overlap')
    const [row] = await t.db.select().from(transfers).where(eq(transfers.id, transfer.id))
    expect(row?.toDate).toBe('2030-01-17')
    const [stored] = await t.db
      .select()
      .from(transferExtensions)
      .where(eq(transferExtensions.id, extension.id))
    expect(stored?.status).toBe('PENDING')
  })

  it('refuses an answer that is neither approve nor refuse, and ids that are not ids', async () => {
    const { manager, contact, transfer } = await heldUntil17()
    const { extension } = await (await ask(contact.cookie, transfer.id, '2030-01-20')).json()
    const wrong = await t.post(`/api/transfers/${transfer.id}/extensions/${extension.id}`, {
      cookie: manager.cookie,
      json: { decision: 'maybe' },
    })
    expect(wrong.status).toBe(400)
    expect((await wrong.json()).error.issues).toEqual([
      { path: 'decision', message: 'Decision must be approve or refuse.' },
    ])
    expect((await decide(manager.cookie, transfer.id, 'nope', 'approve')).status).toBe(400)
    const stored = await t.db.select().from(transferExtensions).where(eq(transferExtensions.id, extension.id))
    expect(stored[0]?.status).toBe('PENDING')
  })

  it("hides another organization's request, and lets no MEMBER answer", async () => {
    const { member, contact, transfer } = await heldUntil17()
    const { extension } = await (await ask(contact.cookie, transfer.id, '2030-01-20')).json()
    expect((await decide(member.cookie, transfer.id, extension.id, 'approve')).status).toBe(403)
    const other = await transferWorld(t, { name: 'Autre' })
    const hidden = await decide(other.admin.cookie, transfer.id, extension.id, 'approve')
    expect(hidden.status).toBe(404)
    expect((await hidden.json()).error).toEqual({ code: 'not_found', message: 'No such transfer.' })
  })

  it('knows no request that is not this transfer’s', async () => {
    const { organization, manager, member, contact, transfer } = await heldUntil17()
    const { extension } = await (await ask(contact.cookie, transfer.id, '2030-01-20')).json()
    const attic = await makeKeychain(t, organization.id, 'Grenier', member.id)
    const other = await makeTransfer(t, {
      organizationId: organization.id,
      keychainId: attic.id,
      recipientId: contact.id,
    })
    for (const [transferId, extensionId] of [
      [transfer.id, randomUUID()],
      [other.id, extension.id],
    ]) {
      const unknown = await decide(manager.cookie, transferId!, extensionId!, 'approve')
      expect(unknown.status).toBe(404)
      expect((await unknown.json()).error).toEqual({
        code: 'not_found',
        message: 'No such request for more time.',
      })
    }
    const [stored] = await t.db
      .select()
      .from(transferExtensions)
      .where(eq(transferExtensions.id, extension.id))
    expect(stored?.status).toBe('PENDING')
  })

  it('cannot approve once the keychain is back: 409 closed, the window stays', async () => {
    const { manager, member, contact, transfer } = await heldUntil17()
    const { extension } = await (await ask(contact.cookie, transfer.id, '2030-01-20')).json()
    expect((await pickup(t, member.cookie, transfer.id)).status).toBe(201)
    const late = await decide(manager.cookie, transfer.id, extension.id, 'approve')
    expect(late.status).toBe(409)
    expect((await late.json()).error).toMatchObject({ code: 'extension_refused', reason: 'closed' })
    const [row] = await t.db.select().from(transfers).where(eq(transfers.id, transfer.id))
    expect(row?.toDate).toBe('2030-01-17')
    // It can still be refused, which tells the holder.
    expect((await decide(manager.cookie, transfer.id, extension.id, 'refuse')).status).toBe(200)
  })
})
