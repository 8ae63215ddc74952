import { randomUUID } from 'node:crypto'
import { asc, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { HOUR, MINUTE, TEST_EPOCH } from '../../../tests/server/clock.ts'
import { makeKeychain } from '../../../tests/server/fixtures.ts'
import { setupTestAppAtEpoch } from '../../../tests/server/harness.ts'
import {
  makeTransfer,
  pickup,
  pickupRefusal,
  scheduledTransfer,
  transferEvents,
  transferWorld,
} from '../../../tests/server/transfers.ts'
import { custodyLog, keychains, transferPickups, transfers } from '../../db/schema.ts'

/**
 * What a pickup writes, beyond its answer: the transfer's row, the keychain's custodian, the custody log, the
 * pickup row and the organization's event; and the instant it is judged and dated at.
 */
const t = setupTestAppAtEpoch()

const transferRow = async (id: string) =>
  (await t.db.select().from(transfers).where(eq(transfers.id, id)))[0]!
const keychainRow = async (id: string) =>
  (await t.db.select().from(keychains).where(eq(keychains.id, id)))[0]!
const custodyOf = (keychainId: string) =>
  t.db
    .select({
      byUserId: custodyLog.byUserId,
      fromUserId: custodyLog.fromUserId,
      toUserId: custodyLog.toUserId,
      at: custodyLog.at,
      reason: custodyLog.reason,
    })
    .from(custodyLog)
    .where(eq(custodyLog.keychainId, keychainId))
    .orderBy(asc(custodyLog.seq))
const pickupRows = (transferId: string) =>
  t.db
    .select({
      kind: transferPickups.kind,
      byUserId: transferPickups.byUserId,
      clientTime: transferPickups.clientTime,
      serverTime: transferPickups.serverTime,
      fromQueue: transferPickups.fromQueue,
    })
    .from(transferPickups)
    .where(eq(transferPickups.transferId, transferId))

/**
 * The custody move of a queued pickup or return, as the custody log, the pickup rows and the organization's
 * transfer events record it: the last of `count` rows in each.
 */
async function expectQueuedMoveRecorded(
  where: { organizationId: string; keychainId: string; transferId: string },
  count: number,
  move: { kind: 'PICKUP' | 'RETURN'; by: string; from: string; to: string; at: Date; serverTime: Date },
) {
  const custody = await custodyOf(where.keychainId)
  expect(custody).toHaveLength(count)
  expect(custody[count - 1]).toEqual({
    byUserId: move.by,
    fromUserId: move.from,
    toUserId: move.to,
    at: move.at,
    reason: move.kind === 'PICKUP' ? 'Transfer pickup' : 'Transfer return',
  })
  const rows = await pickupRows(where.transferId)
  expect(rows).toHaveLength(count)
  expect(rows[count - 1]).toEqual({
    kind: move.kind,
    byUserId: move.by,
    clientTime: move.at,
    serverTime: move.serverTime,
    fromQueue: true,
  })
  const events = await transferEvents(t, where.organizationId)
  expect(events).toHaveLength(count)
  expect(events[count - 1]).toEqual({
    kind: move.kind === 'PICKUP' ? 'transfer.picked_up' : 'transfer.returned',
    actorId: move.by,
    clientTime: move.at,
    serverTime: move.serverTime,
    fromQueue: true,
    keychainIds: [where.keychainId],
    transferIds: [where.transferId],
    payload: { custodian: { from: move.from, to: move.to } },
  })
}

const queued = (clientTime: Date) => ({ 'x-client-time': clientTime.toISOString(), 'x-from-queue': '1' })

describe('a pickup', () => {
  it('makes the recipient the custodian, dated at the queued device time, and records it everywhere', async () => {
    const { organization, member, contact, keychain, transfer } = await scheduledTransfer(t)
    const deviceTime = new Date(TEST_EPOCH.getTime() - 5 * MINUTE)
    const response = await pickup(t, contact.cookie, transfer.id, randomUUID(), queued(deviceTime))
    expect(response.status).toBe(201)

    expect(await transferRow(transfer.id)).toMatchObject({
      status: 'TRANSFERRED',
      previousCustodianId: member.id,
      pickedUpAt: deviceTime,
      returnedAt: null,
    })
    expect(await keychainRow(keychain.id)).toMatchObject({ custodianId: contact.id, updatedAt: TEST_EPOCH })
    const where = { organizationId: organization.id, keychainId: keychain.id, transferId: transfer.id }
    await expectQueuedMoveRecorded(where, 1, {
      kind: 'PICKUP',
      by: contact.id,
      from: member.id,
      to: contact.id,
      at: deviceTime,
      serverTime: TEST_EPOCH,
    })
  })

  it('is dated at the server’s time when it does not come from the queue, the device time only kept', async () => {
    const { organization, contact, keychain, transfer } = await scheduledTransfer(t)
    const deviceTime = new Date(TEST_EPOCH.getTime() - 5 * MINUTE)
    const response = await pickup(t, contact.cookie, transfer.id, randomUUID(), {
      'x-client-time': deviceTime.toISOString(),
    })
    expect(response.status).toBe(201)
    expect((await transferRow(transfer.id)).pickedUpAt).toEqual(TEST_EPOCH)
    expect((await custodyOf(keychain.id)).map((entry) => entry.at)).toEqual([TEST_EPOCH])
    expect(await pickupRows(transfer.id)).toEqual([
      {
        kind: 'PICKUP',
        byUserId: contact.id,
        clientTime: deviceTime,
        serverTime: TEST_EPOCH,
        fromQueue: false,
      },
    ])
    expect(await transferEvents(t, organization.id)).toMatchObject([
      { clientTime: deviceTime, fromQueue: false },
    ])
  })

  it('is judged at the queued device time: picked up inside the window, replayed after it closed', async () => {
    const { contact, transfer } = await scheduledTransfer(t)
    t.clock.set(new Date(transfer.endsAt.getTime() + HOUR))
    const deviceTime = new Date(transfer.endsAt.getTime() - HOUR)
    expect((await pickupRefusal(await pickup(t, contact.cookie, transfer.id))).reason).toBe('window_closed')
    const replayed = await pickup(t, contact.cookie, transfer.id, randomUUID(), queued(deviceTime))
    expect(replayed.status).toBe(201)
    expect(await transferRow(transfer.id)).toMatchObject({ status: 'TRANSFERRED', pickedUpAt: deviceTime })
  })

  it('logs no custody move when the recipient already holds the keychain, and leaves the keychain as it was', async () => {
    const { organization, contact, keychain } = await transferWorld(t)
    await t.db.update(keychains).set({ custodianId: contact.id }).where(eq(keychains.id, keychain.id))
    const transfer = await makeTransfer(t, {
      organizationId: organization.id,
      keychainId: keychain.id,
      recipientId: contact.id,
    })
    const before = await keychainRow(keychain.id)
    t.clock.advance(MINUTE)
    expect((await pickup(t, contact.cookie, transfer.id)).status).toBe(201)
    // Only the transfer columns the transfers' trigger keeps move (the keychain is out now); custody, name and
    // change time stay as they were.
    expect(before.transferStatus).toBe('SCHEDULED')
    expect(await keychainRow(keychain.id)).toEqual({ ...before, transferStatus: 'TRANSFERRED' })
    expect(await custodyOf(keychain.id)).toEqual([])
    expect(await transferRow(transfer.id)).toMatchObject({
      status: 'TRANSFERRED',
      previousCustodianId: contact.id,
      pickedUpAt: t.clock.now(),
    })
    expect(await transferEvents(t, organization.id)).toMatchObject([
      { kind: 'transfer.picked_up', payload: { custodian: { from: contact.id, to: contact.id } } },
    ])
  })

  it('writes nothing when refused', async () => {
    const { organization, member, keychain, transfer } = await scheduledTransfer(t)
    const before = await transferRow(transfer.id)
    expect((await pickupRefusal(await pickup(t, member.cookie, transfer.id))).reason).toBe('not_recipient')
    expect(await transferRow(transfer.id)).toEqual(before)
    expect((await keychainRow(keychain.id)).custodianId).toBe(member.id)
    expect(await custodyOf(keychain.id)).toEqual([])
    expect(await pickupRows(transfer.id)).toEqual([])
    expect(await transferEvents(t, organization.id)).toEqual([])
  })
})

describe('a return', () => {
  it('gives custody back to the previous holder, dated at the judged time, and records it everywhere', async () => {
    const { organization, admin, member, contact, keychain, transfer } = await scheduledTransfer(t)
    await pickup(t, contact.cookie, transfer.id)
    t.clock.advance(HOUR)
    const serverTime = t.clock.now()
    const deviceTime = new Date(serverTime.getTime() - 10 * MINUTE)
    const response = await pickup(t, admin.cookie, transfer.id, randomUUID(), queued(deviceTime))
    expect(response.status).toBe(201)

    expect(await transferRow(transfer.id)).toMatchObject({
      status: 'RETURNED',
      previousCustodianId: member.id,
      pickedUpAt: TEST_EPOCH,
      returnedAt: deviceTime,
    })
    expect(await keychainRow(keychain.id)).toMatchObject({ custodianId: member.id, updatedAt: serverTime })
    const where = { organizationId: organization.id, keychainId: keychain.id, transferId: transfer.id }
    await expectQueuedMoveRecorded(where, 2, {
      kind: 'RETURN',
      by: admin.id,
      from: contact.id,
      to: member.id,
      at: deviceTime,
      serverTime,
    })
  })

  it('is never dated before its pickup, whatever the returning device’s clock says', async () => {
    const { admin, contact, keychain, transfer } = await scheduledTransfer(t)
    await pickup(t, contact.cookie, transfer.id)
    t.clock.advance(10 * MINUTE)
    const deviceTime = new Date(TEST_EPOCH.getTime() - HOUR)
    expect((await pickup(t, admin.cookie, transfer.id, randomUUID(), queued(deviceTime))).status).toBe(201)
    expect((await transferRow(transfer.id)).returnedAt).toEqual(TEST_EPOCH)
    expect((await custodyOf(keychain.id)).map((entry) => entry.at)).toEqual([TEST_EPOCH, TEST_EPOCH])
  })

  it('leaves the keychain with nobody when nobody held it before the pickup', async () => {
    const { organization, admin, contact } = await transferWorld(t)
    const keychain = await makeKeychain(t, organization.id, 'Loose')
    const transfer = await makeTransfer(t, {
      organizationId: organization.id,
      keychainId: keychain.id,
      recipientId: contact.id,
    })
    await pickup(t, contact.cookie, transfer.id)
    expect((await transferRow(transfer.id)).previousCustodianId).toBeNull()
    expect((await pickup(t, admin.cookie, transfer.id)).status).toBe(201)
    expect((await keychainRow(keychain.id)).custodianId).toBeNull()
    expect(
      (await custodyOf(keychain.id)).map(({ fromUserId, toUserId }) => ({ fromUserId, toUserId })),
    ).toEqual([
      { fromUserId: null, toUserId: contact.id },
      { fromUserId: contact.id, toUserId: null },
    ])
  })

  it('answers 404 No such transfer. for a transfer that does not exist', async () => {
    const { contact } = await transferWorld(t)
    const response = await pickup(t, contact.cookie, randomUUID())
    expect(response.status).toBe(404)
    expect((await response.json()).error).toMatchObject({ code: 'not_found', message: 'No such transfer.' })
  })
})
