import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { RETURN_GRACE_MS } from '../../../contract/transfers.ts'
import { HOUR } from '../../../tests/server/clock.ts'
import { makeKeychain, signedInMember } from '../../../tests/server/fixtures.ts'
import { setupTestAppAtEpoch, uniqueEmail } from '../../../tests/server/harness.ts'
import { expectOneAnswerReplayed } from '../../../tests/server/idempotency.ts'
import {
  authorize,
  makeTransfer,
  pickup,
  pickupRefusal as refusal,
  scheduledTransfer,
  transferWorld,
} from '../../../tests/server/transfers.ts'
import { custodyLog, keychains, memberships, transferPickups } from '../../db/schema.ts'

const t = setupTestAppAtEpoch()

const scheduled = (options: { fromDate?: string; toDate?: string } = {}) => scheduledTransfer(t, options)

const custodianOf = async (keychainId: string) =>
  (await t.db.select().from(keychains).where(eq(keychains.id, keychainId)))[0]!.custodianId
const logOf = (keychainId: string) =>
  t.db.select().from(custodyLog).where(eq(custodyLog.keychainId, keychainId))
const pickupRows = (transferId: string) =>
  t.db.select().from(transferPickups).where(eq(transferPickups.transferId, transferId))

describe('POST /transfers/{id}/pickups', () => {
  it('moves SCHEDULED → TRANSFERRED (the recipient) → RETURNED (a member), custody and log following', async () => {
    const { member, contact, keychain, transfer } = await scheduled()
    const first = await pickup(t, contact.cookie, transfer.id, randomUUID(), {
      'x-client-time': '2030-01-15T08:55:00.000Z',
      'x-from-queue': '1',
    })
    expect(first.status).toBe(201)
    expect(await first.json()).toMatchObject({
      status: 'TRANSFERRED',
      expired: false,
      expiresAt: new Date(transfer.endsAt.getTime() + RETURN_GRACE_MS).toISOString(),
      next: null,
      refusal: 'not_member',
      pickups: [
        {
          kind: 'PICKUP',
          by: { id: contact.id },
          clientTime: '2030-01-15T08:55:00.000Z',
          serverTime: '2030-01-15T09:00:00.000Z',
          fromQueue: true,
        },
      ],
    })
    expect(await custodianOf(keychain.id)).toBe(contact.id)

    // The CONTACT holding it cannot confirm the return; a MEMBER (the previous holder here) can.
    const byContact = await refusal(await pickup(t, contact.cookie, transfer.id))
    expect(byContact).toMatchObject({
      reason: 'not_member',
      message: 'Le retour est confirmé par un membre de Agence, à son adresse.',
    })
    t.clock.advance(HOUR)
    const back = await pickup(t, member.cookie, transfer.id)
    expect(back.status).toBe(201)
    const returned = await back.json()
    expect(returned).toMatchObject({
      status: 'RETURNED',
      expiresAt: null,
      next: null,
      refusal: 'already_returned',
    })
    expect(returned.pickups.map((each: { kind: string }) => each.kind)).toEqual(['PICKUP', 'RETURN'])
    expect(returned.pickups[1]).toMatchObject({ by: { id: member.id }, clientTime: null, fromQueue: false })
    expect(await custodianOf(keychain.id)).toBe(member.id)

    const log = await logOf(keychain.id)
    expect(
      log.map(({ byUserId, fromUserId, toUserId, reason }) => ({ byUserId, fromUserId, toUserId, reason })),
    ).toEqual([
      { byUserId: contact.id, fromUserId: member.id, toUserId: contact.id, reason: 'Transfer pickup' },
      { byUserId: member.id, fromUserId: contact.id, toUserId: member.id, reason: 'Transfer return' },
    ])
    expect((await refusal(await pickup(t, member.cookie, transfer.id))).reason).toBe('already_returned')
  })

  it('gives custody back to nobody when the previous holder’s membership is DISABLED meanwhile', async () => {
    const { admin, member, contact, keychain, transfer } = await scheduled()
    await pickup(t, contact.cookie, transfer.id)
    await t.db.update(memberships).set({ status: 'DISABLED' }).where(eq(memberships.userId, member.id))
    expect((await pickup(t, admin.cookie, transfer.id)).status).toBe(201)
    expect(await custodianOf(keychain.id)).toBeNull()
  })

  it('refuses a member recipient’s second press as their own return: one pickup, the keychain stays out', async () => {
    const world = await transferWorld(t)
    const other = await signedInMember(t, world.organization.id, 'MEMBER')
    const transfer = await makeTransfer(t, {
      organizationId: world.organization.id,
      keychainId: world.keychain.id,
      recipientId: other.id,
    })
    expect((await pickup(t, other.cookie, transfer.id)).status).toBe(201)
    const second = await refusal(await pickup(t, other.cookie, transfer.id))
    expect(second).toMatchObject({
      reason: 'own_return',
      message: "Quelqu'un d'autre chez Agence confirme le retour quand vous rapportez le trousseau.",
    })
    expect(await pickupRows(transfer.id)).toHaveLength(1)
    expect(await custodianOf(world.keychain.id)).toBe(other.id)
    expect((await pickup(t, world.member.cookie, transfer.id)).status).toBe(201)
  })

  it('takes back an overdue keychain (RETURNING, expired)', async () => {
    const { admin, contact, transfer } = await scheduled()
    await pickup(t, contact.cookie, transfer.id)
    t.clock.set(new Date(transfer.endsAt.getTime() + RETURN_GRACE_MS + HOUR))
    const { cookie } = await t.signIn(admin.email)
    const before = await (await t.get(`/api/transfers/${transfer.id}`, { cookie })).json()
    expect(before).toMatchObject({ status: 'RETURNING', expired: true, next: 'RETURN' })
    expect((await (await pickup(t, cookie, transfer.id)).json()).status).toBe('RETURNED')
  })

  it('refuses anyone but the recipient, and outside the window, with the date in the message', async () => {
    const { admin, member, contact, transfer } = await scheduled({
      fromDate: '2030-01-16',
      toDate: '2030-01-18',
    })
    expect((await refusal(await pickup(t, member.cookie, transfer.id))).reason).toBe('not_recipient')
    expect((await refusal(await pickup(t, admin.cookie, transfer.id))).reason).toBe('not_recipient')
    expect(await refusal(await pickup(t, contact.cookie, transfer.id))).toMatchObject({
      reason: 'before_window',
      message: 'La période de retrait commence le 16 janvier 2030.',
    })
    await t.patch('/api/profile', { cookie: contact.cookie, json: { locale: 'en' } })
    expect((await refusal(await pickup(t, contact.cookie, transfer.id))).message).toBe(
      'The pickup window opens on 16 January 2030.',
    )
    t.clock.set(new Date(transfer.startsAt.getTime() - 1))
    expect((await refusal(await pickup(t, contact.cookie, transfer.id))).reason).toBe('before_window')
    t.clock.set(transfer.endsAt)
    expect(await refusal(await pickup(t, contact.cookie, transfer.id))).toMatchObject({
      reason: 'window_closed',
      message: 'The pickup window closed on 18 January 2030: the transfer expired.',
    })
    t.clock.set(new Date(transfer.endsAt.getTime() - 1))
    expect((await pickup(t, contact.cookie, transfer.id)).status).toBe(201)
    expect(await pickupRows(transfer.id)).toHaveLength(1)
  })

  it('refuses a cancelled transfer, and a pickup while the keychain is out on another transfer', async () => {
    const { organization, admin, contact, keychain, transfer } = await scheduled()
    expect((await t.delete(`/api/transfers/${transfer.id}`, { cookie: admin.cookie })).status).toBe(200)
    expect((await refusal(await pickup(t, contact.cookie, transfer.id))).reason).toBe('cancelled')

    await makeTransfer(t, {
      organizationId: organization.id,
      keychainId: keychain.id,
      recipientId: admin.id,
      fromDate: '2030-01-10',
      toDate: '2030-01-12',
      status: 'TRANSFERRED',
    })
    const next = await makeTransfer(t, {
      organizationId: organization.id,
      keychainId: keychain.id,
      recipientId: contact.id,
    })
    const view = await (await t.get(`/api/transfers/${next.id}`, { cookie: contact.cookie })).json()
    expect(view).toMatchObject({ next: null, refusal: 'keychain_out' })
    expect(await refusal(await pickup(t, contact.cookie, next.id))).toMatchObject({
      reason: 'keychain_out',
      message: 'Le trousseau n’est pas encore revenu d’un transfert précédent.',
    })
  })

  it('answers 404 to someone who may not see the transfer, and for another organization’s', async () => {
    const { organization, transfer } = await scheduled()
    const otherContact = await signedInMember(t, organization.id, 'CONTACT')
    expect((await pickup(t, otherContact.cookie, transfer.id)).status).toBe(404)
    const other = await transferWorld(t, { name: 'Other' })
    expect((await pickup(t, other.admin.cookie, transfer.id)).status).toBe(404)
    expect((await pickup(t, other.contact.cookie, randomUUID())).status).toBe(404)
  })

  it('answers 400 without an Idempotency-Key or with a bad client time', async () => {
    const { contact, transfer } = await scheduled()
    const missing = await t.post(`/api/transfers/${transfer.id}/pickups`, { cookie: contact.cookie })
    expect(missing.status).toBe(400)
    const badTime = await pickup(t, contact.cookie, transfer.id, randomUUID(), {
      'x-client-time': '2024-02-31T10:00:00Z',
    })
    expect(badTime.status).toBe(400)
    expect(await pickupRows(transfer.id)).toHaveLength(0)
  })
})

describe('replays and races', () => {
  it('counts one key replayed five times once, with the same answer', async () => {
    const { contact, keychain, transfer } = await scheduled()
    const key = randomUUID()
    const answers = []
    for (let i = 0; i < 5; i += 1) {
      t.clock.advance(1000)
      answers.push(await pickup(t, contact.cookie, transfer.id, key, i > 0 ? { 'x-from-queue': '1' } : {}))
    }
    const answered = await expectOneAnswerReplayed(answers)
    // Replayed again once the window has closed, the stored answer still comes back.
    t.clock.set(new Date(transfer.endsAt.getTime() + HOUR))
    const late = await pickup(t, contact.cookie, transfer.id, key, { 'x-from-queue': '1' })
    expect(late.status).toBe(201)
    expect(await late.json()).toEqual(answered)
    expect(await pickupRows(transfer.id)).toHaveLength(1)
    expect(await logOf(keychain.id)).toHaveLength(1)
  })

  it('counts one key sent five times at once once', async () => {
    const { contact, keychain, transfer } = await scheduled()
    const key = randomUUID()
    const answers = await Promise.all([0, 1, 2, 3, 4].map(() => pickup(t, contact.cookie, transfer.id, key)))
    expect(answers.map((response) => response.status)).toEqual([201, 201, 201, 201, 201])
    const bodies = await Promise.all(answers.map((response) => response.json()))
    for (const body of bodies) expect(body).toEqual(bodies[0])
    expect(await pickupRows(transfer.id)).toHaveLength(1)
    expect(await logOf(keychain.id)).toHaveLength(1)
  })

  it('answers 422 for the same key on another transfer', async () => {
    const { organization, contact, transfer } = await scheduled()
    const other = await makeTransfer(t, {
      organizationId: organization.id,
      keychainId: (await makeKeychain(t, organization.id, 'Other')).id,
      recipientId: contact.id,
    })
    const key = randomUUID()
    expect((await pickup(t, contact.cookie, transfer.id, key)).status).toBe(201)
    const reused = await pickup(t, contact.cookie, other.id, key)
    expect(reused.status).toBe(422)
    expect((await reused.json()).error.code).toBe('idempotency_key_reused')
    expect(await pickupRows(other.id)).toHaveLength(0)
  })

  it('makes one move of two different keys racing on one transfer: a pickup, then a return', async () => {
    const { admin, member, contact, keychain, transfer } = await scheduled()
    const pickups = await Promise.all([0, 1].map(() => pickup(t, contact.cookie, transfer.id)))
    expect(pickups.map((response) => response.status).sort()).toEqual([201, 409])
    const returns = await Promise.all([admin, member].map((each) => pickup(t, each.cookie, transfer.id)))
    expect(returns.map((response) => response.status).sort()).toEqual([201, 409])
    const refused = await returns.find((response) => response.status === 409)!.json()
    expect(refused.error.reason).toBe('already_returned')
    expect(await pickupRows(transfer.id)).toHaveLength(2)
    expect(await logOf(keychain.id)).toHaveLength(2)
  })
})

describe('a recipient invited by address', () => {
  it('signs in, sees the request, scans the tag (resolved, next PICKUP) and picks the keychain up', async () => {
    const { admin, keychain, tag } = await transferWorld(t)
    const email = uniqueEmail('guest')
    const created = await authorize(t, admin.cookie, keychain.id, {
      recipient: { kind: 'email', email },
      fromDate: '2030-01-15',
      toDate: '2030-01-16',
    })
    const { id } = await created.json()
    const guest = await t.signIn(email)
    const requests = await (await t.get('/api/transfers/requests', { cookie: guest.cookie })).json()
    expect(requests.data.map((each: { id: string }) => each.id)).toEqual([id])
    expect(requests.data[0]).toMatchObject({ next: 'PICKUP', refusal: null, recipient: { email } })
    expect((await t.get(`/api/transfers/${id}`, { cookie: guest.cookie })).status).toBe(200)
    expect((await t.get('/api/transfers', { cookie: guest.cookie })).status).toBe(200)

    const scan = await t.post('/api/scans', {
      cookie: guest.cookie,
      json: { value: tag.publicId },
      headers: { 'idempotency-key': randomUUID() },
    })
    const result = await scan.json()
    expect(result).toMatchObject({
      status: 'resolved',
      keychain: { id: keychain.id, name: 'Cave', custodian: null },
      actions: ['pickup__transfer'],
      transfer: { id, status: 'SCHEDULED', next: 'PICKUP' },
    })
    const picked = await pickup(t, guest.cookie, result.transfer.id)
    expect(picked.status).toBe(201)
    expect((await picked.json()).status).toBe('TRANSFERRED')
    const again = await t.post('/api/scans', {
      cookie: guest.cookie,
      json: { value: tag.publicId },
      headers: { 'idempotency-key': randomUUID() },
    })
    expect(await again.json()).toMatchObject({
      status: 'resolved',
      keychain: { custodian: { email } },
      transfer: { id, status: 'TRANSFERRED', next: null, refusal: 'not_member' },
    })
  })
})
