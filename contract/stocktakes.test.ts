import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { keeps, messages } from '../tests/schema-checks.ts'
import { OrganizationSchema, OrganizationUpdateSchema, STOCKTAKE_ROLES } from './organizations.ts'
import {
  STOCKTAKE_ITEM_STATES,
  STOCKTAKE_SCAN_OUTCOMES,
  STOCKTAKE_STATUSES,
  StocktakeDetailSchema,
  StocktakeDeviceParamsSchema,
  StocktakeDeviceReportSchema,
  StocktakeListQuerySchema,
  StocktakePageSchema,
  StocktakeScanResultSchema,
  StocktakeScanSchema,
  StocktakeStartSchema,
  StocktakesDueSchema,
} from './stocktakes.ts'

const ID = '0b8f1e4c-6a3d-4c2e-9f1a-2d3b4c5d6e7f'
const DEVICE = '7c9e6679-7425-40de-944b-e07fc1f90ae7'
const person = { id: 'u1', email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace' }
const hook = { id: 'h1', code: 'A-01', placeId: 'p1', placeName: 'Board A' }
const keychain = { id: 'k1', name: 'Cellar', tagCodes: ['AGC-00042'] }
const counts = { expected: 5, found: 2, misplaced: 1, missing: 1, unexpected: 1 }
const summary = {
  id: 's1',
  status: 'CLOSED',
  scope: { id: 'p1', name: 'Board A', kind: 'BOARD' },
  startedAt: '2025-03-01T09:00:00.000Z',
  startedBy: person,
  closedAt: '2025-03-01T10:00:00.000Z',
  closedBy: person,
  counts,
}
const scan = { value: 'AGC-00042', hookId: ID, deviceId: DEVICE, deviceSeq: 1 }

describe('stocktake vocabularies', () => {
  it('lists the statuses, item states and scan outcomes in order', () => {
    expect(STOCKTAKE_STATUSES).toEqual(['OPEN', 'CLOSED'])
    expect(STOCKTAKE_ITEM_STATES).toEqual(['PENDING', 'FOUND', 'MISPLACED', 'MISSING'])
    expect(STOCKTAKE_SCAN_OUTCOMES).toEqual([
      'HOOK',
      'FOUND',
      'MISPLACED',
      'REPEATED',
      'UNEXPECTED',
      'UNKNOWN',
    ])
  })
})

describe('stocktake answers', () => {
  it('keep a page of summaries whole, whole-organization ones and open ones included', () => {
    keeps(StocktakePageSchema, {
      data: [
        summary,
        { ...summary, status: 'OPEN', scope: null, startedBy: null, closedAt: null, closedBy: null },
      ],
      nextCursor: null,
    })
    expect(v.is(StocktakePageSchema, { data: [{ ...summary, status: 'DONE' }], nextCursor: null })).toBe(
      false,
    )
    expect(
      v.is(StocktakePageSchema, {
        data: [{ ...summary, scope: { id: 'p', name: 'P', kind: 'HALL' } }],
        nextCursor: null,
      }),
    ).toBe(false)
    const { missing: _, ...countsWithoutMissing } = counts
    expect(
      v.is(StocktakePageSchema, { data: [{ ...summary, counts: countsWithoutMissing }], nextCursor: null }),
    ).toBe(false)
  })

  it('keep a detail whole: boards, items in every state, unexpected scans and devices', () => {
    keeps(StocktakeDetailSchema, {
      ...summary,
      boards: [{ place: { id: 'p1', name: 'Board A' }, counts }],
      items: STOCKTAKE_ITEM_STATES.map((state) => ({
        keychain,
        state,
        expectedHook: hook,
        foundHook: state === 'MISPLACED' ? { ...hook, id: 'h2', code: 'A-02' } : null,
        foundAt: state === 'PENDING' ? null : '2025-03-01T09:30:00.000Z',
        foundBy: state === 'PENDING' ? null : person,
      })),
      unexpected: [
        { keychain, value: 'AGC-00042', hook, scannedAt: '2025-03-01T09:40:00.000Z', scannedBy: person },
        {
          keychain: null,
          value: 'garbage',
          hook: null,
          scannedAt: '2025-03-01T09:41:00.000Z',
          scannedBy: null,
        },
      ],
      devices: [{ deviceId: DEVICE, person, made: 12, received: 11 }],
      scanCount: 23,
    })
    const detail = { ...summary, boards: [], unexpected: [], devices: [], scanCount: 0 }
    const item = {
      keychain,
      state: 'FOUND',
      expectedHook: null,
      foundHook: null,
      foundAt: null,
      foundBy: null,
    }
    expect(v.is(StocktakeDetailSchema, { ...detail, items: [item] })).toBe(true)
    expect(v.is(StocktakeDetailSchema, { ...detail, items: [{ ...item, state: 'LOST' }] })).toBe(false)
    expect(
      v.is(StocktakeDetailSchema, { ...detail, items: [{ ...item, keychain: { id: 'k', name: 'K' } }] }),
    ).toBe(false)
  })

  it('keep a scan result whole, for every outcome, late or not', () => {
    for (const outcome of STOCKTAKE_SCAN_OUTCOMES)
      keeps(StocktakeScanResultSchema, { outcome, keychain, hook, counts, late: outcome === 'UNKNOWN' })
    keeps(StocktakeScanResultSchema, { outcome: 'UNKNOWN', keychain: null, hook: null, counts, late: false })
    expect(v.is(StocktakeScanResultSchema, { outcome: 'HOME', keychain, hook, counts, late: false })).toBe(
      false,
    )
    expect(v.is(StocktakeScanResultSchema, { outcome: 'FOUND', keychain, hook, counts })).toBe(false)
  })

  it('keep the due list whole, overdue or not', () => {
    keeps(StocktakesDueSchema, {
      data: [
        { place: { id: 'p1', name: 'Board A', kind: 'BOARD' }, dueOn: '2025-04-01', overdue: true },
        { place: { id: 'p2', name: 'Cellar', kind: 'ROOM' }, dueOn: '2025-05-01', overdue: false },
      ],
    })
    expect(
      v.is(StocktakesDueSchema, {
        data: [{ place: { id: 'p1', name: 'A', kind: 'HOOK' }, dueOn: 'd', overdue: true }],
      }),
    ).toBe(false)
  })
})

describe('the stocktake list query', () => {
  it('filters by a known status, with the page parameters', () => {
    for (const status of STOCKTAKE_STATUSES)
      expect(v.parse(StocktakeListQuerySchema, { status, cursor: 'c', limit: '10' })).toEqual({
        status,
        cursor: 'c',
        limit: 10,
      })
    expect(v.parse(StocktakeListQuerySchema, {})).toEqual({})
    expect(messages(StocktakeListQuerySchema, { status: 'open' })).toEqual(['Unknown status.'])
    expect(messages(StocktakeListQuerySchema, { status: 'DONE' })).toEqual(['Unknown status.'])
  })
})

describe('starting a stocktake', () => {
  it('takes a place id or null for the whole organization, and nothing else', () => {
    expect(v.parse(StocktakeStartSchema, { placeId: ID })).toEqual({ placeId: ID })
    expect(v.parse(StocktakeStartSchema, { placeId: null })).toEqual({ placeId: null })
    expect(v.is(StocktakeStartSchema, {})).toBe(false)
    expect(messages(StocktakeStartSchema, { placeId: 'p1' })).toEqual(['Malformed id.'])
    expect(v.is(StocktakeStartSchema, { placeId: ID, kind: 'BOARD' })).toBe(false)
  })
})

describe('a stocktake scan', () => {
  it('is kept trimmed, with or without the hook it was scanned on', () => {
    expect(v.parse(StocktakeScanSchema, { ...scan, value: '  AGC-00042 ' })).toEqual(scan)
    expect(v.parse(StocktakeScanSchema, { ...scan, hookId: null })).toEqual({ ...scan, hookId: null })
    const { hookId: _, ...withoutHook } = scan
    expect(v.parse(StocktakeScanSchema, withoutHook)).toEqual(withoutHook)
    expect(v.is(StocktakeScanSchema, { ...scan, place: 'p1' })).toBe(false)
  })

  it('needs a value of at most 512 characters', () => {
    expect(messages(StocktakeScanSchema, { ...scan, value: '   ' })).toEqual(['Scan a label or a tag.'])
    expect(v.parse(StocktakeScanSchema, { ...scan, value: 'x'.repeat(512) }).value).toHaveLength(512)
    expect(messages(StocktakeScanSchema, { ...scan, value: 'x'.repeat(513) })).toEqual(['Too long.'])
  })

  it('needs a UUID device id and hook id', () => {
    expect(messages(StocktakeScanSchema, { ...scan, deviceId: 'phone-1' })).toEqual([
      'The device id must be a UUID.',
    ])
    expect(messages(StocktakeScanSchema, { ...scan, deviceId: '' })).toEqual([
      'The device id must be a UUID.',
    ])
    expect(v.is(StocktakeScanSchema, { ...scan, deviceId: undefined })).toBe(false)
    expect(messages(StocktakeScanSchema, { ...scan, hookId: 'h1' })).toEqual(['Malformed id.'])
  })

  it('ranks the device scan as a whole number from 1 to a million', () => {
    for (const deviceSeq of [1, 1_000_000])
      expect(v.is(StocktakeScanSchema, { ...scan, deviceSeq })).toBe(true)
    for (const deviceSeq of [0, 1_000_001, 1.5, -1, '1'])
      expect(v.is(StocktakeScanSchema, { ...scan, deviceSeq }), String(deviceSeq)).toBe(false)
  })
})

describe('a device report', () => {
  it('counts the scans made as a whole number from 0 to a million', () => {
    for (const made of [0, 1_000_000])
      expect(v.parse(StocktakeDeviceReportSchema, { made })).toEqual({ made })
    for (const made of [-1, 1_000_001, 2.5])
      expect(v.is(StocktakeDeviceReportSchema, { made }), String(made)).toBe(false)
    expect(v.is(StocktakeDeviceReportSchema, { made: 1, received: 1 })).toBe(false)
  })

  it('names the stocktake by its id and the device by a UUID', () => {
    expect(v.parse(StocktakeDeviceParamsSchema, { id: ID, deviceId: DEVICE })).toEqual({
      id: ID,
      deviceId: DEVICE,
    })
    expect(messages(StocktakeDeviceParamsSchema, { id: ID, deviceId: 'phone-1' })).toEqual([
      'The device id must be a UUID.',
    ])
    expect(messages(StocktakeDeviceParamsSchema, { id: 's1', deviceId: DEVICE })).toEqual(['Malformed id.'])
  })
})

describe('who scans into stocktakes (organization settings)', () => {
  // Only the messages about this setting: the organization carries other settings, tested with them.
  const aboutStocktakeRole = (schema: v.GenericSchema, input: unknown) =>
    (v.safeParse(schema, input).issues ?? [])
      .filter((issue) => issue.path?.[0]?.key === 'stocktakeRole')
      .map((issue) => issue.message)
  const refusal = 'Stocktake role must be ADMIN, MANAGER or MEMBER (a CONTACT never scans in stocktakes).'

  it('is a role from ADMIN down to MEMBER, never CONTACT, in what is shown and what is changed', () => {
    expect(STOCKTAKE_ROLES).toEqual(['ADMIN', 'MANAGER', 'MEMBER'])
    for (const stocktakeRole of STOCKTAKE_ROLES) {
      expect(aboutStocktakeRole(OrganizationSchema, { stocktakeRole }), stocktakeRole).toEqual([])
      expect(v.parse(OrganizationUpdateSchema, { stocktakeRole })).toEqual({ stocktakeRole })
    }
    for (const stocktakeRole of ['CONTACT', 'member', '', undefined]) {
      expect(aboutStocktakeRole(OrganizationSchema, { stocktakeRole }), String(stocktakeRole)).toEqual([
        refusal,
      ])
      if (stocktakeRole !== undefined)
        expect(messages(OrganizationUpdateSchema, { stocktakeRole }), stocktakeRole).toEqual([refusal])
    }
  })
})
