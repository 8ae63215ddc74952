import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { CLOCK_SKEW_MS, QUEUE_CLOCK_TOLERANCE_MS } from '../../../contract/transfers.ts'
import { DAY, MINUTE, TEST_EPOCH } from '../../../tests/server/clock.ts'
import { setupTestAppAtEpoch } from '../../../tests/server/harness.ts'
import { pickup, pickupRefusal, scheduledTransfer } from '../../../tests/server/transfers.ts'
import { custodyLog, keychains, transferPickups, transfers } from '../../db/schema.ts'

/**
 * A pickup queued offline and replayed later (`X-From-Queue: 1`, `X-Client-Time`) is judged by the device's time
 * within `[server - 72 h, server + 5 min]`, else by the server's. The transfer runs from 2030-01-15 to
 * 2030-01-16 in Paris: [2030-01-14T23:00Z, 2030-01-15T23:00Z).
 */
const t = setupTestAppAtEpoch()

const later = (date: Date, ms: number) => new Date(date.getTime() + ms)
const queued = (clientTime: Date) => ({ 'x-client-time': clientTime.toISOString(), 'x-from-queue': '1' })
const rowsOf = (transferId: string) =>
  t.db.select().from(transferPickups).where(eq(transferPickups.transferId, transferId))

describe('a pickup replayed from the offline queue', () => {
  it('is judged by the device time 2 days after the window closed, and records both times', async () => {
    const { contact, keychain, transfer } = await scheduledTransfer(t)
    const deviceTime = TEST_EPOCH
    t.clock.set(later(transfer.endsAt, 2 * DAY))
    const response = await pickup(t, contact.cookie, transfer.id, randomUUID(), queued(deviceTime))
    expect(response.status).toBe(201)
    // Stored TRANSFERRED; computed now, two days past its end, it is due back and overdue.
    expect(await response.json()).toMatchObject({
      status: 'RETURNING',
      expired: true,
      pickups: [
        {
          kind: 'PICKUP',
          clientTime: deviceTime.toISOString(),
          serverTime: t.clock.now().toISOString(),
          fromQueue: true,
        },
      ],
    })
    const [row] = await t.db.select().from(transfers).where(eq(transfers.id, transfer.id))
    expect(row).toMatchObject({ status: 'TRANSFERRED', pickedUpAt: deviceTime })
    const [recorded] = await rowsOf(transfer.id)
    expect(recorded).toMatchObject({ clientTime: deviceTime, serverTime: t.clock.now(), fromQueue: true })
    const [custodian] = await t.db.select().from(keychains).where(eq(keychains.id, keychain.id))
    expect(custodian!.custodianId).toBe(contact.id)
    // The custody log is dated when it happened.
    const log = await t.db.select().from(custodyLog).where(eq(custodyLog.keychainId, keychain.id))
    expect(log.map((entry) => entry.at)).toEqual([deviceTime])
  })

  it('is judged by the server time 4 days later (beyond the tolerance): window_closed', async () => {
    const { contact, transfer } = await scheduledTransfer(t)
    t.clock.set(later(TEST_EPOCH, 4 * DAY))
    const response = await pickup(t, contact.cookie, transfer.id, randomUUID(), queued(TEST_EPOCH))
    expect((await pickupRefusal(response)).reason).toBe('window_closed')
    expect(await rowsOf(transfer.id)).toHaveLength(0)
  })

  it('believes a device time exactly 72 h old, not one a millisecond older', async () => {
    const { contact, transfer } = await scheduledTransfer(t)
    const lastInstant = later(transfer.endsAt, -1)
    t.clock.set(later(lastInstant, QUEUE_CLOCK_TOLERANCE_MS + 1))
    const tooOld = await pickup(t, contact.cookie, transfer.id, randomUUID(), queued(lastInstant))
    expect((await pickupRefusal(tooOld)).reason).toBe('window_closed')
    t.clock.set(later(lastInstant, QUEUE_CLOCK_TOLERANCE_MS))
    const inTime = await pickup(t, contact.cookie, transfer.id, randomUUID(), queued(lastInstant))
    expect(inTime.status).toBe(201)
  })

  it('believes a device clock 5 min ahead, not one a millisecond more', async () => {
    const { contact, transfer } = await scheduledTransfer(t, { fromDate: '2030-01-16', toDate: '2030-01-17' })
    // A minute before the window opens by the server's clock.
    t.clock.set(later(transfer.startsAt, -MINUTE))
    const ahead = later(t.clock.now(), CLOCK_SKEW_MS + 1)
    const future = await pickup(t, contact.cookie, transfer.id, randomUUID(), queued(ahead))
    expect((await pickupRefusal(future)).reason).toBe('before_window')
    const skewed = later(t.clock.now(), CLOCK_SKEW_MS)
    const response = await pickup(t, contact.cookie, transfer.id, randomUUID(), queued(skewed))
    expect(response.status).toBe(201)
    const [row] = await t.db.select().from(transfers).where(eq(transfers.id, transfer.id))
    expect(row!.pickedUpAt).toEqual(skewed)
  })

  it('uses the device time only from the queue', async () => {
    const { contact, transfer } = await scheduledTransfer(t)
    t.clock.set(later(transfer.endsAt, 2 * DAY))
    const notQueued: Record<string, string>[] = [
      { 'x-client-time': TEST_EPOCH.toISOString() },
      { 'x-client-time': TEST_EPOCH.toISOString(), 'x-from-queue': '0' },
      { 'x-from-queue': '1' },
    ]
    for (const headers of notQueued) {
      const response = await pickup(t, contact.cookie, transfer.id, randomUUID(), headers)
      expect((await pickupRefusal(response)).reason).toBe('window_closed')
    }
    expect(await rowsOf(transfer.id)).toHaveLength(0)
  })

  it('refuses a queued pickup the device made before the window opened, even once it is open', async () => {
    const { contact, transfer } = await scheduledTransfer(t)
    const response = await pickup(
      t,
      contact.cookie,
      transfer.id,
      randomUUID(),
      queued(later(transfer.startsAt, -MINUTE)),
    )
    expect((await pickupRefusal(response)).reason).toBe('before_window')
  })

  it('dates a queued return by the device, never before its pickup', async () => {
    for (const [deviceTime, returnedAt] of [
      [later(TEST_EPOCH, 3 * MINUTE), later(TEST_EPOCH, 3 * MINUTE)],
      // A device clock behind the one that picked it up.
      [later(TEST_EPOCH, -10 * MINUTE), TEST_EPOCH],
    ] as const) {
      t.clock.set(TEST_EPOCH)
      const { member, contact, keychain, transfer } = await scheduledTransfer(t)
      expect((await pickup(t, contact.cookie, transfer.id)).status).toBe(201)
      t.clock.set(later(TEST_EPOCH, DAY))
      const back = await pickup(t, member.cookie, transfer.id, randomUUID(), queued(deviceTime))
      expect(back.status).toBe(201)
      const [row] = await t.db.select().from(transfers).where(eq(transfers.id, transfer.id))
      expect(row).toMatchObject({ status: 'RETURNED', pickedUpAt: TEST_EPOCH, returnedAt })
      const log = await t.db.select().from(custodyLog).where(eq(custodyLog.keychainId, keychain.id))
      expect(log.map((entry) => entry.at)).toEqual([TEST_EPOCH, returnedAt])
      expect((await rowsOf(transfer.id)).map((each) => each.clientTime)).toEqual([null, deviceTime])
    }
  })
})
