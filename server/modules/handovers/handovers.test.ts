import { and, asc, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import type { Handover } from '../../../contract/handover.ts'
import { MINUTE } from '../../../tests/server/clock.ts'
import { createOrganization, makeKeychain, signedInMember } from '../../../tests/server/fixtures.ts'
import {
  handoverWorld,
  refusalOf,
  registeredDevice,
  signedPair,
  submitPair,
} from '../../../tests/server/handovers.ts'
import { setupTestAppAtEpoch } from '../../../tests/server/harness.ts'
import { makeBoard } from '../../../tests/server/places.ts'
import { makeTransfer, parisDay } from '../../../tests/server/transfers.ts'
import {
  custodyLog,
  handovers,
  jobs,
  keychains,
  organizationEvents,
  organizations,
  transferPickups,
  transfers,
  webhookDeliveries,
  webhookEndpoints,
} from '../../db/schema.ts'
import { sealSecret } from '../../shared/secret-box.ts'

const t = setupTestAppAtEpoch()

const custodyOf = (keychainId: string) =>
  t.db.select().from(custodyLog).where(eq(custodyLog.keychainId, keychainId)).orderBy(asc(custodyLog.seq))
const eventsOf = (organizationId: string, kind: string) =>
  t.db
    .select()
    .from(organizationEvents)
    .where(and(eq(organizationEvents.organizationId, organizationId), eq(organizationEvents.kind, kind)))
    .orderBy(asc(organizationEvents.seq))
const holderOf = async (keychainId: string) =>
  (await t.db.select().from(keychains).where(eq(keychains.id, keychainId)))[0]!
const listed = async (cookie: string, query = '') =>
  ((await (await t.get(`/api/handovers${query}`, { cookie })).json()) as { data: Handover[] }).data

describe('a genuine pair', () => {
  it('is applied once: the receiver holds it, off its hook, one custody change, one event with both codes, a webhook', async () => {
    const w = await handoverWorld(t)
    const { hooks } = await makeBoard(t, w.organization.id, { count: 1 })
    await t.db
      .update(keychains)
      .set({ hookId: hooks[0]!.id, hookSeenAt: t.clock.now(), hookSeenById: w.giver.id })
      .where(eq(keychains.id, w.keychain.id))
    await t.db.insert(webhookEndpoints).values({
      organizationId: w.organization.id,
      url: 'http://127.0.0.1:9/handovers',
      eventTypes: ['keychain.handed_over'],
      secretBox: sealSecret(t.deps.secret, 'whsec_handover'),
      secretHint: '…over',
      createdAt: t.clock.now(),
      updatedAt: t.clock.now(),
    })
    const offeredAt = t.clock.now().getTime() - 20 * MINUTE
    const pair = await signedPair(t, {
      organizationId: w.organization.id,
      keychainId: w.keychain.id,
      giver: w.giverPhone,
      receiver: w.receiverPhone,
      at: offeredAt,
      acceptedAt: offeredAt + 12_000,
    })
    const first = await submitPair(t, w.receiver, pair)
    expect(first.status).toBe(201)
    const applied = (await first.json()) as Handover
    expect(applied).toEqual({
      id: pair.offerId,
      status: 'APPLIED',
      reason: null,
      keychain: { id: w.keychain.id, name: 'Master set' },
      giver: { id: w.giver.id, email: w.giver.email, firstName: 'Nadia', lastName: 'Night' },
      receiver: { id: w.receiver.id, email: w.receiver.email, firstName: 'Marc', lastName: 'Morning' },
      giverDeviceId: w.giverPhone.id,
      receiverDeviceId: w.receiverPhone.id,
      offeredAt: new Date(offeredAt).toISOString(),
      acceptedAt: new Date(offeredAt + 12_000).toISOString(),
      receivedAt: t.clock.now().toISOString(),
      sentBy: { id: w.receiver.id, email: w.receiver.email, firstName: 'Marc', lastName: 'Morning' },
    })
    const keychain = await holderOf(w.keychain.id)
    expect(keychain).toMatchObject({ custodianId: w.receiver.id, hookId: null, hookSeenAt: null })
    const custody = await custodyOf(w.keychain.id)
    expect(custody).toHaveLength(1)
    expect(custody[0]).toMatchObject({
      byUserId: w.giver.id,
      fromUserId: w.giver.id,
      toUserId: w.receiver.id,
      reason: 'handover',
      at: new Date(offeredAt),
    })
    const [event, ...more] = await eventsOf(w.organization.id, 'keychain.handed_over')
    expect(more).toEqual([])
    expect(event).toMatchObject({
      actorId: w.giver.id,
      keychainIds: [w.keychain.id],
      clientTime: new Date(offeredAt),
      fromQueue: true,
      payload: {
        handoverId: pair.offerId,
        offer: pair.offer,
        acceptance: pair.acceptance,
        sentById: w.receiver.id,
        custodian: { from: w.giver.id, to: w.receiver.id },
        transferId: null,
      },
    })
    const deliveries = await t.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.organizationId, w.organization.id))
    expect(deliveries).toHaveLength(1)
    expect(deliveries[0]!.eventType).toBe('keychain.handed_over')
    expect(JSON.parse(deliveries[0]!.body).data).toMatchObject({
      handoverId: pair.offerId,
      offer: pair.offer,
      acceptance: pair.acceptance,
    })
    // The activity log's chain still holds with the entry in it.
    const check = await t.get('/api/activity/verification', { cookie: w.admin.cookie })
    expect(await check.json()).toMatchObject({ valid: true })

    // The same pair from the other phone: the same handover, nothing more.
    t.clock.advance(MINUTE)
    const second = await submitPair(t, w.giver, pair)
    expect(second.status).toBe(200)
    expect(await second.json()).toEqual(applied)
    expect(await custodyOf(w.keychain.id)).toHaveLength(1)
    expect(await eventsOf(w.organization.id, 'keychain.handed_over')).toHaveLength(1)
    expect(
      await t.db.$count(webhookDeliveries, eq(webhookDeliveries.organizationId, w.organization.id)),
    ).toBe(1)
    // Each phone's device shows when it last took part in a handover.
    const devices = await (await t.get('/api/devices', { cookie: w.giver.cookie })).json()
    expect(devices.data[0].lastHandoverAt).toBe(new Date(offeredAt).toISOString())
  })

  it('answers a replay after custody moved on with its first answer, changing nothing', async () => {
    const w = await handoverWorld(t)
    const third = await signedInMember(t, w.organization.id, 'MEMBER')
    const thirdPhone = await registeredDevice(t, third)
    const pair = await signedPair(t, {
      organizationId: w.organization.id,
      keychainId: w.keychain.id,
      giver: w.giverPhone,
      receiver: w.receiverPhone,
    })
    const applied = await (await submitPair(t, w.giver, pair)).json()
    const [change] = await custodyOf(w.keychain.id)
    const onward = await signedPair(t, {
      organizationId: w.organization.id,
      keychainId: w.keychain.id,
      giver: w.receiverPhone,
      receiver: thirdPhone,
      base: change!.seq,
    })
    expect((await submitPair(t, third, onward)).status).toBe(201)
    t.clock.advance(10 * MINUTE)
    for (const sender of [w.giver, w.receiver]) {
      const replay = await submitPair(t, sender, pair)
      expect(replay.status).toBe(200)
      expect(await replay.json()).toEqual(applied)
    }
    expect((await holderOf(w.keychain.id)).custodianId).toBe(third.id)
    expect((await custodyOf(w.keychain.id)).map((entry) => entry.toUserId)).toEqual([w.receiver.id, third.id])
    expect(await eventsOf(w.organization.id, 'keychain.handed_over')).toHaveLength(2)
  })
})

describe('one keychain offered twice offline', () => {
  it('goes to the first pair to arrive; the second is a conflict kept for both people and the managers', async () => {
    const w = await handoverWorld(t)
    const other = await signedInMember(t, w.organization.id, 'MEMBER')
    const otherPhone = await registeredDevice(t, other)
    const base = { organizationId: w.organization.id, keychainId: w.keychain.id, giver: w.giverPhone }
    const toReceiver = await signedPair(t, { ...base, receiver: w.receiverPhone })
    const toOther = await signedPair(t, { ...base, receiver: otherPhone, at: t.clock.now().getTime() + 1000 })
    expect((await submitPair(t, w.receiver, toReceiver)).status).toBe(201)
    t.clock.advance(MINUTE)
    const refused = await submitPair(t, other, toOther)
    expect(await refusalOf(refused)).toBe('conflict')
    const body = await refused.json()
    expect(body.error.message).toBe(
      'The keychain changed hands after the offer was made: another handover came first.',
    )
    expect(body.error.handover).toMatchObject({ id: toOther.offerId, status: 'REFUSED', reason: 'conflict' })
    expect((await holderOf(w.keychain.id)).custodianId).toBe(w.receiver.id)
    expect(await custodyOf(w.keychain.id)).toHaveLength(1)

    // Sent again (by the giver's phone this time): the same refusal, kept once, logged once.
    const again = await submitPair(t, w.giver, toOther)
    expect(await refusalOf(again)).toBe('conflict')
    expect((await again.json()).error.handover).toEqual(body.error.handover)
    const [logged, ...twice] = await eventsOf(w.organization.id, 'handover.refused')
    expect(twice).toEqual([])
    expect(logged).toMatchObject({
      actorId: w.giver.id,
      keychainIds: [w.keychain.id],
      payload: {
        handoverId: toOther.offerId,
        reason: 'conflict',
        offer: toOther.offer,
        acceptance: toOther.acceptance,
        giverId: w.giver.id,
        receiverId: toOther.value.receiverId,
      },
    })
    // The activity log names both people of the refused handover.
    const activity = await (
      await t.get('/api/activity?kind=handover.refused', { cookie: w.admin.cookie })
    ).json()
    expect(Object.keys(activity.refs.people)).toEqual(
      expect.arrayContaining([w.giver.id, toOther.value.receiverId]),
    )
    expect(await t.db.$count(handovers, eq(handovers.organizationId, w.organization.id))).toBe(2)

    const ids = (list: Handover[]) => list.map((each) => `${each.id}:${each.status}`)
    const both = [`${toOther.offerId}:REFUSED`, `${toReceiver.offerId}:APPLIED`]
    expect(ids(await listed(w.giver.cookie))).toEqual(both)
    expect(ids(await listed(w.manager.cookie))).toEqual(both)
    expect(ids(await listed(w.admin.cookie))).toEqual(both)
    expect(ids(await listed(other.cookie))).toEqual([`${toOther.offerId}:REFUSED`])
    expect(ids(await listed(w.receiver.cookie))).toEqual([`${toReceiver.offerId}:APPLIED`])
    expect(await listed(w.contact.cookie)).toEqual([])
    expect(ids(await listed(w.manager.cookie, '?status=REFUSED'))).toEqual([`${toOther.offerId}:REFUSED`])
    expect(ids(await listed(w.giver.cookie, '?status=APPLIED'))).toEqual([`${toReceiver.offerId}:APPLIED`])
    expect((await t.get('/api/handovers?status=LOST', { cookie: w.giver.cookie })).status).toBe(400)

    const one = await t.get(`/api/handovers/${toOther.offerId}`, { cookie: other.cookie })
    expect(await one.json()).toEqual(body.error.handover)
    for (const outsider of [w.receiver, w.contact]) {
      const hidden = await t.get(`/api/handovers/${toOther.offerId}`, { cookie: outsider.cookie })
      expect(hidden.status).toBe(404)
    }
    expect((await t.get(`/api/handovers/${toOther.offerId}`, { cookie: w.manager.cookie })).status).toBe(200)
    expect((await t.get('/api/handovers/not-an-id', { cookie: w.manager.cookie })).status).toBe(400)
  })

  it('lists a page at a time, newest first', async () => {
    const w = await handoverWorld(t)
    let base = 0
    let [giver, receiver] = [w.giverPhone, w.receiverPhone]
    const ids: string[] = []
    for (let index = 0; index < 27; index += 1) {
      const pair = await signedPair(t, {
        organizationId: w.organization.id,
        keychainId: w.keychain.id,
        giver,
        receiver,
        base,
      })
      const sender = giver.userId === w.giver.id ? w.giver : w.receiver
      expect((await submitPair(t, sender, pair)).status).toBe(201)
      ids.unshift(pair.offerId)
      base = (await custodyOf(w.keychain.id)).at(-1)!.seq
      ;[giver, receiver] = [receiver, giver]
      t.clock.advance(MINUTE)
    }
    const first = await (await t.get('/api/handovers', { cookie: w.manager.cookie })).json()
    expect(first.data).toHaveLength(25)
    expect(first.nextCursor).toEqual(expect.any(String))
    const second = await (
      await t.get(`/api/handovers?cursor=${first.nextCursor}`, { cookie: w.manager.cookie })
    ).json()
    expect([...first.data, ...second.data].map((each: Handover) => each.id)).toEqual(ids)
    expect(second.nextCursor).toBeNull()
    expect((await t.get('/api/handovers?cursor=nope', { cookie: w.manager.cookie })).status).toBe(400)
  })
})

describe('the server’s records refuse a genuine pair, and keep the refusal', () => {
  const pairOf = (
    w: Awaited<ReturnType<typeof handoverWorld>>,
    extra: { keychainId?: string; base?: number } = {},
  ) =>
    signedPair(t, {
      organizationId: w.organization.id,
      keychainId: extra.keychainId ?? w.keychain.id,
      giver: w.giverPhone,
      receiver: w.receiverPhone,
      base: extra.base ?? 0,
    })

  it('when the giver does not hold it, it is out on a transfer, or it is gone', async () => {
    const w = await handoverWorld(t)
    const held = await makeKeychain(t, w.organization.id, 'Held by the admin', w.admin.id)
    expect(await refusalOf(await submitPair(t, w.giver, await pairOf(w, { keychainId: held.id })))).toBe(
      'not_custodian',
    )
    const out = await makeKeychain(t, w.organization.id, 'Lent', w.giver.id)
    await makeTransfer(t, {
      organizationId: w.organization.id,
      keychainId: out.id,
      recipientId: w.giver.id,
      status: 'TRANSFERRED',
    })
    expect(await refusalOf(await submitPair(t, w.giver, await pairOf(w, { keychainId: out.id })))).toBe(
      'on_transfer',
    )
    const deleted = await makeKeychain(t, w.organization.id, 'Deleted', w.giver.id)
    await t.db.update(keychains).set({ deletedAt: t.clock.now() }).where(eq(keychains.id, deleted.id))
    const gone = await submitPair(t, w.giver, await pairOf(w, { keychainId: deleted.id }))
    expect(await refusalOf(gone)).toBe('keychain_gone')
    expect((await gone.json()).error.handover.keychain).toEqual({ id: deleted.id, name: 'Deleted' })
    const foreign = await makeKeychain(
      t,
      (await createOrganization(t, 'Elsewhere')).id,
      'Foreign',
      w.giver.id,
    )
    const nowhere = await submitPair(t, w.receiver, await pairOf(w, { keychainId: foreign.id }))
    expect(await refusalOf(nowhere)).toBe('keychain_gone')
    expect((await nowhere.json()).error.handover.keychain).toEqual({ id: foreign.id, name: '' })
    expect((await holderOf(foreign.id)).custodianId).toBe(w.giver.id)
    // A base the server never had (ahead of its records) is a conflict too.
    expect(await refusalOf(await submitPair(t, w.giver, await pairOf(w, { base: 12 })))).toBe('conflict')
    const refusals = await eventsOf(w.organization.id, 'handover.refused')
    expect(refusals.map((event) => (event.payload as { reason: string }).reason)).toEqual([
      'not_custodian',
      'on_transfer',
      'keychain_gone',
      'keychain_gone',
      'conflict',
    ])
    expect(refusals[3]!.keychainIds).toEqual([])
    expect(await t.db.$count(custodyLog, eq(custodyLog.keychainId, w.keychain.id))).toBe(0)
  })

  it('when the receiver may not hold it: a contact under MEMBERS, or out of a transfer’s window', async () => {
    const w = await handoverWorld(t)
    const contactPhone = await registeredDevice(t, w.contact)
    const toContact = (at = t.clock.now().getTime()) =>
      signedPair(t, {
        organizationId: w.organization.id,
        keychainId: w.keychain.id,
        giver: w.giverPhone,
        receiver: contactPhone,
        at,
      })
    // A transfer to the contact whose window (today to tomorrow in Paris) is open: still not under MEMBERS.
    const transfer = await makeTransfer(t, {
      organizationId: w.organization.id,
      keychainId: w.keychain.id,
      recipientId: w.contact.id,
      fromDate: parisDay(t, 1),
      toDate: parisDay(t, 3),
    })
    expect(await refusalOf(await submitPair(t, w.contact, await toContact()))).toBe('receiver_not_allowed')
    await t.db
      .update(organizations)
      .set({ handoverReceivers: 'MEMBERS_AND_CONTACTS' })
      .where(eq(organizations.id, w.organization.id))
    // Allowed, but the transfer's window opens tomorrow.
    expect(await refusalOf(await submitPair(t, w.contact, await toContact()))).toBe('receiver_not_allowed')
    // A disabled member is no receiver either.
    const former = await signedInMember(t, w.organization.id, 'MEMBER', { status: 'DISABLED' })
    const formerPhone = await registeredDevice(t, former)
    const toFormer = await signedPair(t, {
      organizationId: w.organization.id,
      keychainId: w.keychain.id,
      giver: w.giverPhone,
      receiver: formerPhone,
    })
    expect(await refusalOf(await submitPair(t, w.giver, toFormer))).toBe('receiver_not_allowed')

    // Within the window: the handover is the transfer's pickup, from the giver.
    t.clock.advance(24 * 60 * MINUTE)
    const pair = await toContact()
    const applied = await submitPair(t, w.giver, pair)
    expect(applied.status).toBe(201)
    expect((await holderOf(w.keychain.id)).custodianId).toBe(w.contact.id)
    const [lent] = await t.db.select().from(transfers).where(eq(transfers.id, transfer.id))
    expect(lent).toMatchObject({
      status: 'TRANSFERRED',
      previousCustodianId: w.giver.id,
      pickedUpAt: t.clock.now(),
    })
    const pickups = await t.db
      .select()
      .from(transferPickups)
      .where(eq(transferPickups.transferId, transfer.id))
    expect(pickups).toEqual([
      expect.objectContaining({
        kind: 'PICKUP',
        byUserId: w.contact.id,
        serverTime: t.clock.now(),
        fromQueue: true,
      }),
    ])
    const [event] = await eventsOf(w.organization.id, 'keychain.handed_over')
    expect(event).toMatchObject({ transferIds: [transfer.id], payload: { transferId: transfer.id } })
    const notices = await t.db.select().from(jobs).where(eq(jobs.kind, 'notice'))
    expect(notices.map((job) => job.payload)).toContainEqual({
      kind: 'transfer.picked_up',
      transferId: transfer.id,
      actorId: w.contact.id,
      at: t.clock.now().toISOString(),
    })
    const seen = await (await t.get(`/api/transfers/${transfer.id}`, { cookie: w.contact.cookie })).json()
    expect(seen.status).toBe('TRANSFERRED')
    // The contact reads the handovers they took part in.
    expect((await listed(w.contact.cookie)).map((each) => each.status)).toEqual([
      'APPLIED',
      'REFUSED',
      'REFUSED',
    ])
  })
})

describe('who may send a pair', () => {
  it('not someone other than its two people (403), nor an offer of another organization (404)', async () => {
    const w = await handoverWorld(t)
    const pair = await signedPair(t, {
      organizationId: w.organization.id,
      keychainId: w.keychain.id,
      giver: w.giverPhone,
      receiver: w.receiverPhone,
    })
    const forbidden = await submitPair(t, w.manager, pair)
    expect(forbidden.status).toBe(403)
    expect((await forbidden.json()).error.code).toBe('forbidden')
    const elsewhere = await createOrganization(t, 'Elsewhere')
    const foreign = await signedPair(t, {
      organizationId: elsewhere.id,
      keychainId: w.keychain.id,
      giver: w.giverPhone,
      receiver: w.receiverPhone,
    })
    const notFound = await submitPair(t, w.giver, foreign)
    expect(notFound.status).toBe(404)
    expect((await notFound.json()).error.code).toBe('not_found')
    expect(await t.db.$count(handovers, eq(handovers.organizationId, w.organization.id))).toBe(0)
    expect((await holderOf(w.keychain.id)).custodianId).toBe(w.giver.id)
    // Applied afterwards, the manager may read it but still not send it.
    expect((await submitPair(t, w.receiver, pair)).status).toBe(201)
    expect((await submitPair(t, w.manager, pair)).status).toBe(403)
  })
})
