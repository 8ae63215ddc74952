import { describe, expect, it } from 'vitest'
import { calendarDayIn, startOfDayIn } from '../server/shared/time-zones.ts'
import type { StoredTransferStatus } from './transfer-state.ts'
import {
  concerningTransfer,
  expiresAt,
  inWindow,
  isExpired,
  isOpen,
  pickupDecision,
  transferStatus,
} from './transfer-state.ts'
import { CLOCK_SKEW_MS, judgedTime, QUEUE_CLOCK_TOLERANCE_MS, RETURN_GRACE_MS } from './transfers.ts'

const startsAt = new Date('2030-01-14T23:00:00.000Z')
const endsAt = new Date('2030-01-16T23:00:00.000Z')
const row = (status: StoredTransferStatus) => ({ status, startsAt, endsAt, recipientId: 'recipient' })
const at = (date: Date, ms = 0) => new Date(date.getTime() + ms)
const recipient = { userId: 'recipient', role: 'CONTACT' as const }
const member = { userId: 'someone', role: 'MEMBER' as const }

describe('transferStatus / isExpired / expiresAt', () => {
  it('SCHEDULED stays SCHEDULED and expires exactly at endsAt', () => {
    expect(transferStatus(row('SCHEDULED'), at(endsAt, 1))).toBe('SCHEDULED')
    expect(isExpired(row('SCHEDULED'), at(endsAt, -1))).toBe(false)
    expect(isExpired(row('SCHEDULED'), endsAt)).toBe(true)
    expect(expiresAt(row('SCHEDULED'))).toEqual(endsAt)
    expect(isOpen(row('SCHEDULED'), at(endsAt, -1))).toBe(true)
    expect(isOpen(row('SCHEDULED'), endsAt)).toBe(false)
  })

  it('TRANSFERRED becomes RETURNING exactly at endsAt and expires a grace later', () => {
    expect(transferStatus(row('TRANSFERRED'), at(endsAt, -1))).toBe('TRANSFERRED')
    expect(transferStatus(row('TRANSFERRED'), endsAt)).toBe('RETURNING')
    expect(isExpired(row('TRANSFERRED'), endsAt)).toBe(false)
    expect(isExpired(row('TRANSFERRED'), at(endsAt, RETURN_GRACE_MS - 1))).toBe(false)
    expect(isExpired(row('TRANSFERRED'), at(endsAt, RETURN_GRACE_MS))).toBe(true)
    expect(expiresAt(row('TRANSFERRED'))).toEqual(at(endsAt, RETURN_GRACE_MS))
    expect(isOpen(row('TRANSFERRED'), at(endsAt, 10 * RETURN_GRACE_MS))).toBe(true)
  })

  it('RETURNED and CANCELLED are over: never expired, no expiry', () => {
    for (const status of ['RETURNED', 'CANCELLED'] as const) {
      expect(transferStatus(row(status), at(endsAt, RETURN_GRACE_MS))).toBe(status)
      expect(isExpired(row(status), at(endsAt, RETURN_GRACE_MS))).toBe(false)
      expect(expiresAt(row(status))).toBeNull()
      expect(isOpen(row(status), startsAt)).toBe(false)
    }
  })
})

describe('pickupDecision', () => {
  it('lets the recipient pick up inside [startsAt, endsAt) only', () => {
    const scheduled = row('SCHEDULED')
    expect(pickupDecision(scheduled, recipient, at(startsAt, -1), false)).toEqual({
      next: null,
      refusal: 'before_window',
    })
    expect(pickupDecision(scheduled, recipient, startsAt, false)).toEqual({ next: 'PICKUP', refusal: null })
    expect(pickupDecision(scheduled, recipient, at(endsAt, -1), false)).toEqual({
      next: 'PICKUP',
      refusal: null,
    })
    expect(pickupDecision(scheduled, recipient, endsAt, false).refusal).toBe('window_closed')
  })

  it('refuses anyone but the recipient, and a keychain still out on another transfer', () => {
    expect(pickupDecision(row('SCHEDULED'), member, startsAt, false).refusal).toBe('not_recipient')
    expect(pickupDecision(row('SCHEDULED'), { ...recipient, role: null }, startsAt, false).next).toBe(
      'PICKUP',
    )
    expect(pickupDecision(row('SCHEDULED'), recipient, startsAt, true).refusal).toBe('keychain_out')
  })

  it('lets a MEMBER or above confirm the return, overdue or not; a CONTACT or a stranger cannot', () => {
    for (const now of [startsAt, endsAt, at(endsAt, 5 * RETURN_GRACE_MS)]) {
      for (const role of ['ADMIN', 'MANAGER', 'MEMBER'] as const) {
        expect(pickupDecision(row('TRANSFERRED'), { userId: 'x', role }, now, true).next).toBe('RETURN')
      }
      expect(pickupDecision(row('TRANSFERRED'), recipient, now, false).refusal).toBe('not_member')
      expect(pickupDecision(row('TRANSFERRED'), { userId: 'x', role: null }, now, false).refusal).toBe(
        'not_member',
      )
    }
  })

  it('never lets a member recipient confirm their own return (a double tap on pick up stays one pickup)', () => {
    for (const role of ['ADMIN', 'MANAGER', 'MEMBER'] as const) {
      const self = { userId: recipient.userId, role }
      expect(pickupDecision(row('TRANSFERRED'), self, endsAt, false)).toEqual({
        next: null,
        refusal: 'own_return',
      })
    }
  })

  it('answers already_returned and cancelled for transfers that are over', () => {
    expect(pickupDecision(row('RETURNED'), member, startsAt, false)).toEqual({
      next: null,
      refusal: 'already_returned',
    })
    expect(pickupDecision(row('CANCELLED'), recipient, startsAt, false)).toEqual({
      next: null,
      refusal: 'cancelled',
    })
  })
})

describe('judgedTime', () => {
  const server = new Date('2030-01-20T12:00:00.000Z')

  it('takes a queued device time within [server - 72 h, server + 5 min], bounds included', () => {
    for (const ms of [-QUEUE_CLOCK_TOLERANCE_MS, -1, 0, CLOCK_SKEW_MS]) {
      expect(judgedTime(server, at(server, ms), true), String(ms)).toEqual(at(server, ms))
    }
  })

  it('takes the server time outside those bounds, without the queue flag, or without a device time', () => {
    for (const ms of [-QUEUE_CLOCK_TOLERANCE_MS - 1, CLOCK_SKEW_MS + 1]) {
      expect(judgedTime(server, at(server, ms), true), String(ms)).toEqual(server)
    }
    expect(judgedTime(server, at(server, -1), false)).toEqual(server)
    expect(judgedTime(server, null, true)).toEqual(server)
    expect(judgedTime(server, new Date(Number.NaN), true)).toEqual(server)
  })
})

describe('calendar days in Europe/Paris', () => {
  it('starts a day at local midnight, across the changes of time', () => {
    expect(startOfDayIn('Europe/Paris', '2030-01-15').toISOString()).toBe('2030-01-14T23:00:00.000Z')
    // Summer time starts on 31 March 2030 at 02:00: the day starts on winter time, the next on summer time.
    expect(startOfDayIn('Europe/Paris', '2030-03-31').toISOString()).toBe('2030-03-30T23:00:00.000Z')
    expect(startOfDayIn('Europe/Paris', '2030-04-01').toISOString()).toBe('2030-03-31T22:00:00.000Z')
    // Winter time comes back on 27 October 2030.
    expect(startOfDayIn('Europe/Paris', '2030-10-27').toISOString()).toBe('2030-10-26T22:00:00.000Z')
    expect(startOfDayIn('Europe/Paris', '2030-10-28').toISOString()).toBe('2030-10-27T23:00:00.000Z')
  })

  it('reads the day of an instant on the zone’s wall clock', () => {
    expect(calendarDayIn('Europe/Paris', new Date('2030-01-31T22:59:59.999Z'))).toBe('2030-01-31')
    expect(calendarDayIn('Europe/Paris', new Date('2030-01-31T23:00:00.000Z'))).toBe('2030-02-01')
    expect(calendarDayIn('Europe/Paris', new Date('2030-03-30T23:00:00.000Z'))).toBe('2030-03-31')
  })
})

describe('concerningTransfer: which of a keychain’s open transfers a scan shows', () => {
  const day = 24 * 60 * 60 * 1000
  const now = new Date('2030-01-15T12:00:00.000Z')
  type Row = { id: string; status: StoredTransferStatus; startsAt: Date; endsAt: Date; recipientId: string }
  const transfer = (
    id: string,
    status: StoredTransferStatus,
    startDays: number,
    recipientId = 'someone',
  ): Row => ({
    id,
    status,
    startsAt: at(now, startDays * day),
    endsAt: at(now, (startDays + 2) * day),
    recipientId,
  })
  const out = transfer('out', 'TRANSFERRED', -1)
  const mine = transfer('mine', 'SCHEDULED', -1, 'me')
  const theirs = transfer('theirs', 'SCHEDULED', -1)
  const later = transfer('later', 'SCHEDULED', 3, 'me')
  const soon = transfer('soon', 'SCHEDULED', 1)
  it.each([
    ['the one out, whatever else is scheduled', [mine, soon, out], 'out'],
    ['else the caller’s own whose window is open', [soon, theirs, mine], 'mine'],
    ['else the next one scheduled, earliest window first', [later, soon], 'soon'],
    ['someone else’s open window before a later one of the caller’s', [later, theirs], 'theirs'],
    ['the caller’s own not yet open counts as scheduled, by its window', [later], 'later'],
    ['none when nothing is open', [], undefined],
  ])('%s', (_, open, expected) => {
    expect(concerningTransfer(open as Row[], (row) => row, 'me', now)?.id).toBe(expected)
  })

  it('reads the window at its edges: open from startsAt, closed at endsAt', () => {
    const edge = transfer('edge', 'SCHEDULED', 0, 'me')
    const other = transfer('other', 'SCHEDULED', -5)
    expect(concerningTransfer([other, edge], (row) => row, 'me', edge.startsAt)?.id).toBe('edge')
    expect(concerningTransfer([other, edge], (row) => row, 'me', at(edge.startsAt, -1))?.id).toBe('other')
    expect(inWindow(edge, at(edge.endsAt, -1))).toBe(true)
    expect(inWindow(edge, edge.endsAt)).toBe(false)
  })
})
