import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { failure } from '../tests/schema-checks.ts'
import { EVENT_KINDS } from './events.ts'
import {
  HoldingsPageSchema,
  HoldingsQuerySchema,
  LeaverListSchema,
  MONTHLY_KINDS,
  MONTHS_MAX,
  MonthlyActivitySchema,
  MonthlyQuerySchema,
  monthSpan,
  OpenTransferPageSchema,
  OverduePageSchema,
  OverdueQuerySchema,
  UNSEEN_DAYS_DEFAULT,
  UNSEEN_DAYS_MAX,
  UnseenPageSchema,
  UnseenQuerySchema,
} from './reports.ts'

const ID = '0b0e2f5c-8a4e-4c1e-9d2a-3f4b5c6d7e8f'

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

/** A value of another type than `value`'s (a number where a string or null is expected). */
const wrongType = (value: Json): Json => (typeof value === 'string' || value === null ? 42 : 'wrong')

/** Every copy of `value` with one field (at any depth, first array item) missing or of the wrong type. */
const broken = (value: Json, path = ''): [string, Json][] => {
  if (Array.isArray(value)) {
    const [first, ...rest] = value
    if (first === undefined) return []
    return broken(first, `${path}[0]`).map(([at, item]) => [at, [item, ...rest]])
  }
  if (value === null || typeof value !== 'object') return []
  return Object.entries(value).flatMap(([key, field]) => {
    const at = path ? `${path}.${key}` : key
    const { [key]: _, ...without } = value
    return [
      [`${at} missing`, without] as [string, Json],
      [`${at} wrong`, { ...value, [key]: wrongType(field) }] as [string, Json],
      ...broken(field, at).map(([inner, changed]): [string, Json] => [inner, { ...value, [key]: changed }]),
    ]
  })
}

const expectStrict = (schema: v.GenericSchema, valid: Json) => {
  expect(v.parse(schema, valid)).toEqual(valid)
  const cases = broken(valid)
  expect(cases.length).toBeGreaterThan(0)
  for (const [name, input] of cases) expect([name, v.is(schema, input)]).toEqual([name, false])
}

const PERSON = { id: ID, email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace' }

describe('the departure report query', () => {
  it('asks for a person first, then a well-formed id', () => {
    expect(failure(HoldingsQuerySchema, {})).toBe('person: Choose a person.')
    expect(failure(HoldingsQuerySchema, { person: '' })).toBe('person: Choose a person.')
    expect(failure(HoldingsQuerySchema, { person: 'nobody' })).toBe('person: Malformed id.')
    expect(v.parse(HoldingsQuerySchema, { person: ID })).toEqual({ person: ID })
  })

  it('pages like every list', () => {
    expect(v.parse(HoldingsQuerySchema, { person: ID, cursor: 'abc', limit: '10' })).toEqual({
      person: ID,
      cursor: 'abc',
      limit: 10,
    })
    expect(failure(HoldingsQuerySchema, { person: ID, limit: '0' })).toBe('limit: limit must be at least 1.')
    expect(failure(HoldingsQuerySchema, { person: ID, limit: 'x' })).toBe(
      'limit: limit must be a whole number.',
    )
  })
})

describe('the overdue report query', () => {
  it('narrows to a person by id, or not at all, and pages', () => {
    expect(v.parse(OverdueQuerySchema, {})).toEqual({})
    expect(v.parse(OverdueQuerySchema, { person: ID, limit: '5' })).toEqual({ person: ID, limit: 5 })
    expect(failure(OverdueQuerySchema, { person: 'nobody' })).toBe('person: Malformed id.')
    expect(failure(OverdueQuerySchema, { person: 3 })).not.toBeNull()
    expect(failure(OverdueQuerySchema, { limit: '101' })).toBe('limit: limit must be at most 100.')
  })
})

describe('the unseen report query', () => {
  it('has its bounds', () => {
    expect(UNSEEN_DAYS_DEFAULT).toBe(30)
    expect(UNSEEN_DAYS_MAX).toBe(3650)
  })

  it('reads days as a whole number from 1 to the maximum', () => {
    expect(v.parse(UnseenQuerySchema, {})).toEqual({})
    expect(v.parse(UnseenQuerySchema, { days: '1' })).toEqual({ days: 1 })
    expect(v.parse(UnseenQuerySchema, { days: '3650' })).toEqual({ days: 3650 })
    expect(v.parse(UnseenQuerySchema, { days: '0030', person: ID, cursor: 'c' })).toEqual({
      days: 30,
      person: ID,
      cursor: 'c',
    })
    expect(failure(UnseenQuerySchema, { days: '0' })).toBe('days: days must be at least 1.')
    expect(failure(UnseenQuerySchema, { days: '3651' })).toBe('days: days must be at most 3650.')
    expect(failure(UnseenQuerySchema, { days: '12345' })).toBe('days: days must be at most 3650.')
    for (const days of ['123456', 'a1', '1a', '', '-1', '1.5', ' 1'])
      expect(failure(UnseenQuerySchema, { days })).toBe('days: days must be a whole number.')
    expect(failure(UnseenQuerySchema, { days: 5 })).not.toBeNull()
    expect(failure(UnseenQuerySchema, { person: 'nobody' })).toBe('person: Malformed id.')
    expect(failure(UnseenQuerySchema, { limit: '0' })).toBe('limit: limit must be at least 1.')
  })

  it('documents days', () => {
    expect(v.getMetadata(UnseenQuerySchema.entries.days.wrapped)).toEqual({
      description: 'A whole number from 1 to 3650.',
    })
  })
})

describe('months', () => {
  const month = (from: unknown) => failure(MonthlyQuerySchema, { from })

  it('are written YYYY-MM', () => {
    expect(month('2030-01')).toBeNull()
    expect(month('2030-09')).toBeNull()
    expect(month('2030-10')).toBeNull()
    expect(month('2030-12')).toBeNull()
    for (const wrong of [
      '2030-00',
      '2030-13',
      '2030-20',
      '30-01',
      '2030-1',
      ' 2030-01',
      '2030-01 ',
      '20301-01',
      'x2030-01',
    ])
      expect([wrong, month(wrong)]).toEqual([wrong, 'from: Months are written YYYY-MM.'])
    expect(failure(MonthlyQuerySchema, { to: '2030-13' })).toBe('to: Months are written YYYY-MM.')
    expect(month(202001)).not.toBeNull()
  })

  it('document their pattern', () => {
    const [object] = MonthlyQuerySchema.pipe
    expect(v.getMetadata(object.entries.from.wrapped)).toEqual({ pattern: '^\\d{4}-(0[1-9]|1[0-2])$' })
  })

  it('are counted both included', () => {
    expect(monthSpan('2030-05', '2030-05')).toBe(1)
    expect(monthSpan('2030-01', '2030-12')).toBe(12)
    expect(monthSpan('2029-12', '2030-01')).toBe(2)
    expect(monthSpan('2028-03', '2030-02')).toBe(24)
    expect(monthSpan('2030-05', '2030-04')).toBe(0)
    expect(monthSpan('2031-01', '2030-01')).toBe(-11)
  })
})

describe('the monthly report query', () => {
  it('takes either end, both, or none', () => {
    expect(v.parse(MonthlyQuerySchema, {})).toEqual({})
    expect(v.parse(MonthlyQuerySchema, { from: '2030-01' })).toEqual({ from: '2030-01' })
    expect(v.parse(MonthlyQuerySchema, { to: '2030-01' })).toEqual({ to: '2030-01' })
    expect(v.parse(MonthlyQuerySchema, { from: '2030-01', to: '2030-01' })).toEqual({
      from: '2030-01',
      to: '2030-01',
    })
  })

  it('refuses a last month before the first', () => {
    expect(failure(MonthlyQuerySchema, { from: '2030-02', to: '2030-01' })).toBe(
      'to: The last month comes before the first.',
    )
    expect(failure(MonthlyQuerySchema, { from: '2030-01', to: '2029-12' })).toBe(
      'to: The last month comes before the first.',
    )
  })

  it('spans at most 36 months', () => {
    expect(MONTHS_MAX).toBe(36)
    expect(v.parse(MonthlyQuerySchema, { from: '2028-01', to: '2030-12' })).toEqual({
      from: '2028-01',
      to: '2030-12',
    })
    expect(failure(MonthlyQuerySchema, { from: '2028-01', to: '2031-01' })).toBe(
      'to: At most 36 months at a time.',
    )
    expect(failure(MonthlyQuerySchema, { from: '2020-01', to: '2031-01' })).toBe(
      'to: At most 36 months at a time.',
    )
  })
})

describe('the monthly kinds', () => {
  it('are the event kinds but the scans’ own entries, in order', () => {
    expect(MONTHLY_KINDS).toEqual(EVENT_KINDS.filter((kind) => kind !== 'scan.recorded'))
    expect(MONTHLY_KINDS).toHaveLength(EVENT_KINDS.length - 1)
    expect(MONTHLY_KINDS).not.toContain('scan.recorded')
  })
})

describe('the reports', () => {
  it('a page of the keychains a person holds', () => {
    const member = { ...PERSON, role: 'MEMBER', status: 'DISABLED', joinedAt: '2030-01-01T00:00:00Z' }
    const keychain = {
      id: 'k1',
      name: 'Front door',
      since: '2030-01-02T00:00:00Z',
      keys: [{ name: 'Main', type: 'TAG', tagCode: 'ABC-123' }],
      dueBack: { transferId: 't1', toDate: '2030-01-05', overdue: true },
    }
    expectStrict(HoldingsPageSchema, { person: member, data: [keychain], nextCursor: 'next' })
    expect(
      v.is(HoldingsPageSchema, {
        person: member,
        data: [
          { ...keychain, since: null, keys: [{ name: 'Spare', type: 'KEY', tagCode: null }], dueBack: null },
        ],
        nextCursor: null,
      }),
    ).toBe(true)
    expect(
      v.is(HoldingsPageSchema, {
        person: member,
        data: [{ ...keychain, keys: [{ name: 'Spare', type: 'CARD', tagCode: null }] }],
        nextCursor: null,
      }),
    ).toBe(false)
  })

  it('a page of open transfers', () => {
    const transfer = {
      id: 't1',
      keychainId: 'k1',
      keychainName: 'Front door',
      fromDate: '2030-01-01',
      toDate: '2030-01-05',
      status: 'SCHEDULED',
      expired: false,
    }
    expectStrict(OpenTransferPageSchema, { data: [transfer], nextCursor: null })
    expect(v.is(OpenTransferPageSchema, { data: [{ ...transfer, status: 'LOST' }], nextCursor: null })).toBe(
      false,
    )
  })

  it('a page of overdue transfers', () => {
    const transfer = {
      id: 't1',
      keychainId: 'k1',
      keychainName: 'Front door',
      recipient: PERSON,
      fromDate: '2030-01-01',
      toDate: '2030-01-05',
      pickedUpAt: '2030-01-01T09:00:00Z',
      daysLate: 3,
    }
    expectStrict(OverduePageSchema, { data: [transfer], nextCursor: 'n' })
    expect(v.is(OverduePageSchema, { data: [{ ...transfer, pickedUpAt: null }], nextCursor: null })).toBe(
      true,
    )
  })

  it('a page of unseen keychains', () => {
    const keychain = {
      id: 'k1',
      name: 'Front door',
      custodian: PERSON,
      tagCodes: ['ABC-123'],
      lastScanAt: '2030-01-01T09:00:00Z',
    }
    expectStrict(UnseenPageSchema, { data: [keychain], nextCursor: null })
    expect(
      v.is(UnseenPageSchema, {
        data: [{ ...keychain, custodian: null, tagCodes: [], lastScanAt: null }],
        nextCursor: null,
      }),
    ).toBe(true)
  })

  it('the activity of each month', () => {
    const month = { month: '2030-01', scans: 4, entries: 2, byKind: {} }
    expectStrict(MonthlyActivitySchema, { from: '2030-01', to: '2030-02', months: [month] })
    const byKind = (kinds: unknown) =>
      v.is(MonthlyActivitySchema, { from: '2030-01', to: '2030-01', months: [{ ...month, byKind: kinds }] })
    expect(byKind({ 'transfer.authorized': 1, 'keychain.created': 1 })).toBe(true)
    expect(byKind({ 'scan.recorded': 1 })).toBe(false)
    expect(byKind({ 'transfer.authorized': '1' })).toBe(false)
    expect(byKind('none')).toBe(false)
  })

  it('the leavers', () => {
    expectStrict(LeaverListSchema, { data: [{ person: PERSON, keychains: 2, transfers: 1 }] })
    expect(v.is(LeaverListSchema, { data: [] })).toBe(true)
  })
})
