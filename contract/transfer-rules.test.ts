import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { first, messages } from '../tests/schema-checks.ts'
import { isRealInstant, SCAN_ACTIONS, ScanHeadersSchema, ScanRequestSchema } from './scans.ts'
import {
  ACTIVE_TRANSFER_STATUSES,
  CalendarDateSchema,
  CLOCK_SKEW_MS,
  isCalendarDate,
  judgedTime,
  PICKUP_REFUSALS,
  QUEUE_CLOCK_TOLERANCE_MS,
  RETURN_GRACE_MS,
  TRANSFER_STATUSES,
  TransferCreateSchema,
  TransferListQuerySchema,
  TransferRequestsQuerySchema,
} from './transfers.ts'

describe('transfer statuses and bounds', () => {
  it('are the stored ones plus RETURNING; active ones still concern the keychain', () => {
    expect(TRANSFER_STATUSES).toEqual(['SCHEDULED', 'TRANSFERRED', 'RETURNING', 'RETURNED', 'CANCELLED'])
    expect(ACTIVE_TRANSFER_STATUSES).toEqual(['SCHEDULED', 'TRANSFERRED', 'RETURNING'])
    expect(PICKUP_REFUSALS).toEqual([
      'not_recipient',
      'not_member',
      'own_return',
      'before_window',
      'window_closed',
      'cancelled',
      'already_returned',
      'keychain_out',
    ])
    expect(RETURN_GRACE_MS).toBe(86_400_000)
    expect(QUEUE_CLOCK_TOLERANCE_MS).toBe(72 * 3_600_000)
    expect(CLOCK_SKEW_MS).toBe(300_000)
  })
})

describe('the time the pickup rules judge', () => {
  const server = new Date('2030-01-15T09:00:00.000Z')
  const at = (ms: number) => new Date(server.getTime() + ms)
  it.each([
    ['the device time, queued and just behind', at(-60_000), true, at(-60_000)],
    ['the device time, queued and as late as the skew allows', at(CLOCK_SKEW_MS), true, at(CLOCK_SKEW_MS)],
    ['the server time, queued and past the skew', at(CLOCK_SKEW_MS + 1), true, server],
    [
      'the device time, queued and as old as the tolerance allows',
      at(-QUEUE_CLOCK_TOLERANCE_MS),
      true,
      at(-QUEUE_CLOCK_TOLERANCE_MS),
    ],
    ['the server time, queued and older than the tolerance', at(-QUEUE_CLOCK_TOLERANCE_MS - 1), true, server],
    ['the server time, not queued', at(-60_000), false, server],
    ['the server time, without a device time', null, true, server],
    ['the server time, with an unreadable device time', new Date('nonsense'), true, server],
  ])('is %s', (_what, client, fromQueue, judged) => {
    expect(judgedTime(server, client, fromQueue)).toEqual(judged)
  })
})

describe('calendar dates', () => {
  it.each([
    ['2030-01-31', true],
    ['2030-02-28', true],
    ['2028-02-29', true],
    ['2000-02-29', true],
    ['2030-12-31', true],
    ['2030-02-29', false],
    ['2030-02-30', false],
    ['2100-02-29', false],
    ['2030-04-31', false],
    ['2030-13-01', false],
    ['2030-00-10', false],
    ['2030-01-00', false],
    ['2030-01-32', false],
  ])('%s exists: %s', (day, exists) => {
    expect(isCalendarDate(day)).toBe(exists)
    expect(v.is(CalendarDateSchema, day)).toBe(exists)
  })

  it('says what is wrong', () => {
    expect(messages(CalendarDateSchema, 42)).toEqual(['Date is required.'])
    expect(first(CalendarDateSchema, '30/01/2030')).toBe('Dates are written YYYY-MM-DD.')
    expect(first(CalendarDateSchema, '2030-1-30')).toBe('Dates are written YYYY-MM-DD.')
    expect(first(CalendarDateSchema, '2030-01-300')).toBe('Dates are written YYYY-MM-DD.')
    expect(first(CalendarDateSchema, 'x2030-01-30')).toBe('Dates are written YYYY-MM-DD.')
    expect(messages(CalendarDateSchema, '2030-02-30')).toEqual(['This date does not exist.'])
  })
})

describe('a new transfer', () => {
  const member = { kind: 'member', userId: '00000000-0000-4000-8000-000000000001' }
  it('runs from a day to a later one, for a member or an e-mail address', () => {
    expect(
      v.parse(TransferCreateSchema, { recipient: member, fromDate: '2030-01-15', toDate: '2030-01-16' }),
    ).toEqual({
      recipient: member,
      fromDate: '2030-01-15',
      toDate: '2030-01-16',
    })
    const byMail = { kind: 'email', email: 'o’brien@example.com'.replace('’', "'"), locale: 'en' }
    expect(
      v.parse(TransferCreateSchema, { recipient: byMail, fromDate: '2030-01-15', toDate: '2030-02-01' }),
    ).toMatchObject({ recipient: { kind: 'email', locale: 'en' } })
  })

  it('refuses a to-date on or before the from-date, naming the to-date', () => {
    for (const toDate of ['2030-01-15', '2030-01-14']) {
      const result = v.safeParse(TransferCreateSchema, { recipient: member, fromDate: '2030-01-15', toDate })
      expect(result.issues?.map((issue) => [issue.message, v.getDotPath(issue)])).toEqual([
        ['The to-date must be after the from-date.', 'toDate'],
      ])
    }
  })

  it('refuses a missing recipient or an unknown kind, and extra fields', () => {
    expect(
      messages(TransferCreateSchema, { recipient: 5, fromDate: '2030-01-15', toDate: '2030-01-16' }),
    ).toEqual(['Recipient is required.'])
    expect(
      v.is(TransferCreateSchema, {
        recipient: { kind: 'team', id: 'x' },
        fromDate: '2030-01-15',
        toDate: '2030-01-16',
      }),
    ).toBe(false)
    expect(
      v.is(TransferCreateSchema, {
        recipient: member,
        fromDate: '2030-01-15',
        toDate: '2030-01-16',
        note: 'x',
      }),
    ).toBe(false)
    expect(
      v.is(TransferCreateSchema, {
        recipient: { ...member, extra: 1 },
        fromDate: '2030-01-15',
        toDate: '2030-01-16',
      }),
    ).toBe(false)
  })

  it('filters lists by status, expiry and openness', () => {
    expect(v.parse(TransferListQuerySchema, { status: 'RETURNING', expired: 'true', limit: '100' })).toEqual({
      status: 'RETURNING',
      expired: 'true',
      limit: 100,
    })
    expect(messages(TransferListQuerySchema, { status: 'LOST' })).toEqual(['Unknown transfer status.'])
    expect(messages(TransferListQuerySchema, { expired: 'yes' })).toEqual(['expired must be true or false.'])
    expect(v.parse(TransferRequestsQuerySchema, { open: 'false' })).toEqual({ open: 'false' })
    expect(messages(TransferRequestsQuerySchema, { open: '1' })).toEqual(['open must be true or false.'])
  })
})

describe('a scan request', () => {
  it('needs a value of at most 512 characters, trimmed', () => {
    expect(v.parse(ScanRequestSchema, { value: ' AGC-00042 ' })).toEqual({ value: 'AGC-00042' })
    expect(messages(ScanRequestSchema, { value: '   ' })).toEqual(['Value is required.'])
    expect(messages(ScanRequestSchema, { value: 42 })).toEqual(['Value is required.'])
    expect(v.is(ScanRequestSchema, { value: 'x'.repeat(512) })).toBe(true)
    expect(v.is(ScanRequestSchema, { value: 'x'.repeat(513) })).toBe(false)
    expect(v.is(ScanRequestSchema, { value: 'x', extra: 1 })).toBe(false)
  })

  it('lists the actions a resolved scan may offer', () => {
    expect(SCAN_ACTIONS).toEqual([
      'read__keychain',
      'update__keychain',
      'delete__keychain',
      'create__key',
      'update__key',
      'delete__key',
      'create__transfer',
      'pickup__transfer',
    ])
  })
})

describe('the headers of a scan', () => {
  const key = '11111111-1111-4111-8111-111111111111'
  it('carry a UUID key, and optionally the device time and the queue flag', () => {
    const headers = {
      'idempotency-key': key,
      'x-client-time': '2030-01-15T09:00:00.000Z',
      'x-from-queue': '1',
    }
    expect(v.parse(ScanHeadersSchema, headers)).toEqual(headers)
    expect(v.parse(ScanHeadersSchema, { 'idempotency-key': key })).toEqual({ 'idempotency-key': key })
  })

  it.each([
    [{}, 'The Idempotency-Key header is required.'],
    [{ 'idempotency-key': 'abc' }, 'The Idempotency-Key header must be a UUID.'],
    [{ 'idempotency-key': key, 'x-from-queue': 'yes' }, 'The X-From-Queue header must be 0 or 1.'],
    [
      { 'idempotency-key': key, 'x-client-time': 'yesterday' },
      'The X-Client-Time header must be an ISO 8601 time.',
    ],
    [
      { 'idempotency-key': key, 'x-client-time': '2024-02-31T10:00:00Z' },
      'The X-Client-Time header must be an ISO 8601 time.',
    ],
  ])('refuse %j: %s', (headers, message) => {
    expect(first(ScanHeadersSchema, headers)).toBe(message)
  })
  it('refuse a value that is not an object of headers', () => {
    expect(messages(ScanHeadersSchema, 'x')).toEqual(['The Idempotency-Key header is required.'])
  })
})

describe('a real instant', () => {
  it.each([
    ['2024-02-29T10:00:00Z', true],
    ['2024-02-28T23:59:59.999+01:00', true],
    ['0001-01-01T00:00:00Z', true],
    ['2024-12-31T10:00:00Z', true],
    ['2024-02-31T10:00:00Z', false],
    ['2023-02-29T10:00:00Z', false],
    ['2024-04-31T10:00:00Z', false],
    ['2024-01-32T10:00:00Z', false],
    ['0000-06-15T10:00:00Z', false],
    ['not a time', false],
  ])('%s is one: %s', (value, real) => {
    expect(isRealInstant(value)).toBe(real)
  })
})
