import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { keeps, messages } from '../tests/schema-checks.ts'
import { LABEL_FORMAT_IDS } from './label-layout.ts'
import {
  HOOK_HOLDERS,
  HOOK_RANGE_MAX,
  HOOKS_PER_PLACE_MAX,
  HookCodeSchema,
  HookLabelPrintSchema,
  HookParamsSchema,
  HookRangeResultSchema,
  HookRangeSchema,
  HookScanResultSchema,
  HookScanSchema,
  hookLabelUrl,
  KeychainHomeSchema,
  KeychainLocationSchema,
  LOCATION_PUBLIC_ID_PATTERN,
  PLACE_DEPTH_MAX,
  PLACE_KINDS,
  PLACE_NAME_MAX,
  PlaceCreateSchema,
  PlaceDetailSchema,
  PlaceKindSchema,
  PlaceTreeSchema,
  PlaceUpdateSchema,
  parseLocationLabel,
  placeLabelUrl,
  STOCKTAKE_INTERVALS,
} from './places.ts'

const ID = 'abcdefghijklmn23'

describe('location labels', () => {
  it('reads back what a hook or place label encodes, whatever the host or the case', () => {
    expect(parseLocationLabel(hookLabelUrl('https://keys.example/', ID))).toEqual({
      kind: 'hook',
      publicId: ID,
    })
    expect(parseLocationLabel(placeLabelUrl('https://keys.example', ID))).toEqual({
      kind: 'place',
      publicId: ID,
    })
    expect(parseLocationLabel(`http://old.host/h/${ID.toUpperCase()}/`)).toEqual({
      kind: 'hook',
      publicId: ID,
    })
    expect(parseLocationLabel(` H:${ID} `)).toEqual({ kind: 'hook', publicId: ID })
    expect(parseLocationLabel(`p:${ID}`)).toEqual({ kind: 'place', publicId: ID })
  })

  it('names nothing for a tag, a short id, another path or garbage', () => {
    for (const value of [
      `https://keys.example/tags/${ID}abcd`,
      'https://keys.example/h/abc',
      `https://keys.example/x/${ID}`,
      `h:${ID}0`,
      ID,
      'AGC-00042',
      'https://[bad',
      '',
    ]) {
      expect(parseLocationLabel(value), value).toBeNull()
    }
  })
})

describe('hook codes and ranges', () => {
  it('upper-cases codes and refuses what cannot be printed plainly', () => {
    expect(v.parse(HookCodeSchema, ' a-01 ')).toBe('A-01')
    for (const bad of ['', 'A--1', '-A', 'A-', 'A 1', 'A'.repeat(17)])
      expect(v.is(HookCodeSchema, bad), bad).toBe(false)
  })

  it('takes a range of at most 500, in order, with a default width of 2', () => {
    expect(v.parse(HookRangeSchema, { prefix: 'a-', from: 1, to: 60 })).toEqual({
      prefix: 'A-',
      from: 1,
      to: 60,
      width: 2,
    })
    expect(v.is(HookRangeSchema, { prefix: '', from: 1, to: 500 })).toBe(true)
    expect(v.is(HookRangeSchema, { prefix: '', from: 1, to: 501 })).toBe(false)
    expect(v.is(HookRangeSchema, { prefix: 'A', from: 5, to: 4 })).toBe(false)
    expect(v.is(HookRangeSchema, { prefix: 'A B', from: 1, to: 2 })).toBe(false)
  })
})

const UUID = '0b8f1e4c-6a3d-4c2e-9f1a-2d3b4c5d6e7f'
const UUID_2 = '7c9e6679-7425-40de-944b-e07fc1f90ae7'
/** Every end of the label alphabet's ranges: A, Z, a, z, 2 and 7. */
const EDGES = 'AZaz27bcdefghijk'
const hook = { id: 'h1', placeId: 'p1', code: 'A-01', publicId: ID, homeOf: [{ id: 'k1', name: 'Cellar' }] }
const hookRef = { id: 'h1', code: 'A-01', placeId: 'p1', placeName: 'Board A' }
const person = { id: 'u1', email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace' }
const place = {
  id: 'p1',
  parentId: 'p0',
  kind: 'BOARD',
  name: 'Board A',
  depth: 2,
  publicId: ID,
  hookCount: 60,
  homeCount: 42,
  stocktakeEvery: 'MONTHLY',
  stocktakeDueOn: '2025-04-01',
  lastStocktake: {
    id: 's1',
    closedAt: '2025-03-01T10:00:00.000Z',
    found: 40,
    missing: 1,
    misplaced: 1,
    unexpected: 2,
  },
}

describe('place kinds and limits', () => {
  it('are sites, rooms, boards and cabinets; boards and cabinets alone hold hooks', () => {
    expect(PLACE_KINDS).toEqual(['SITE', 'ROOM', 'BOARD', 'CABINET'])
    expect([...HOOK_HOLDERS]).toEqual(['BOARD', 'CABINET'])
    for (const kind of PLACE_KINDS) expect(v.parse(PlaceKindSchema, kind)).toBe(kind)
    expect(messages(PlaceKindSchema, 'HOOK')).toEqual(['Kind must be SITE, ROOM, BOARD or CABINET.'])
    expect(messages(PlaceKindSchema, 'board')).toEqual(['Kind must be SITE, ROOM, BOARD or CABINET.'])
  })

  it('stop at depth 6, 80-character names, 500 hooks a request and 2000 a board', () => {
    expect(PLACE_DEPTH_MAX).toBe(6)
    expect(PLACE_NAME_MAX).toBe(80)
    expect(HOOK_RANGE_MAX).toBe(500)
    expect(HOOKS_PER_PLACE_MAX).toBe(2000)
    expect(STOCKTAKE_INTERVALS).toEqual(['MONTHLY', 'QUARTERLY'])
  })
})

describe('place answers', () => {
  it('keep the tree whole, top-level places and places never counted included', () => {
    keeps(PlaceTreeSchema, {
      data: [
        { ...place, id: 'p0', parentId: null, kind: 'SITE', depth: 0, publicId: null, hookCount: 0 },
        { ...place, stocktakeEvery: 'QUARTERLY' },
        { ...place, id: 'p2', stocktakeEvery: null, stocktakeDueOn: null, lastStocktake: null },
      ],
    })
    expect(v.is(PlaceTreeSchema, { data: [{ ...place, stocktakeEvery: 'WEEKLY' }] })).toBe(false)
    expect(v.is(PlaceTreeSchema, { data: [{ ...place, kind: 'HOOK' }] })).toBe(false)
  })

  it('keep a detail whole: the path down to it and its hooks with the keychains they are home to', () => {
    keeps(PlaceDetailSchema, {
      ...place,
      path: [
        { id: 'p-1', name: 'Head office', kind: 'SITE' },
        { id: 'p0', name: 'Reception', kind: 'ROOM' },
      ],
      hooks: [hook, { ...hook, id: 'h2', code: 'A-02', homeOf: [] }],
    })
    expect(
      v.is(PlaceDetailSchema, { ...place, path: [], hooks: [{ ...hook, homeOf: [{ id: 'k1' }] }] }),
    ).toBe(false)
    expect(
      v.is(PlaceDetailSchema, { ...place, path: [{ id: 'p0', name: 'R', kind: 'HALL' }], hooks: [] }),
    ).toBe(false)
    expect(v.is(PlaceDetailSchema, { ...place, path: [] })).toBe(false)
  })

  it('keep the hooks a range made whole', () => {
    keeps(HookRangeResultSchema, { created: 2, skipped: 1, hooks: [hook, { ...hook, id: 'h3', homeOf: [] }] })
    expect(v.is(HookRangeResultSchema, { created: 2, hooks: [] })).toBe(false)
  })
})

describe('creating and changing a place', () => {
  it('takes a trimmed name of at most 80 characters, a kind and a parent, or none', () => {
    expect(v.parse(PlaceCreateSchema, { name: '  Board A ', kind: 'BOARD', parentId: UUID })).toEqual({
      name: 'Board A',
      kind: 'BOARD',
      parentId: UUID,
    })
    expect(v.parse(PlaceCreateSchema, { name: 'Site', kind: 'SITE', parentId: null })).toEqual({
      name: 'Site',
      kind: 'SITE',
      parentId: null,
    })
    expect(v.parse(PlaceCreateSchema, { name: 'x'.repeat(80), kind: 'ROOM' }).name).toHaveLength(80)
    expect(messages(PlaceCreateSchema, { name: 'x'.repeat(81), kind: 'ROOM' })).toEqual(['Name is too long.'])
    expect(messages(PlaceCreateSchema, { name: '  ', kind: 'ROOM' })).toEqual(['Name is required.'])
    expect(messages(PlaceCreateSchema, { name: 'R', kind: 'HALL' })).toEqual([
      'Kind must be SITE, ROOM, BOARD or CABINET.',
    ])
    expect(messages(PlaceCreateSchema, { name: 'R', kind: 'ROOM', parentId: 'p1' })).toEqual([
      'Malformed id.',
    ])
    expect(v.is(PlaceCreateSchema, { name: 'R', kind: 'ROOM', depth: 1 })).toBe(false)
  })

  it('changes a name, a parent or the stocktake interval, one at least', () => {
    for (const change of [
      { name: ' Board B ' },
      { parentId: null },
      { parentId: UUID },
      { stocktakeEvery: 'QUARTERLY' },
      { stocktakeEvery: null },
    ])
      expect(v.parse(PlaceUpdateSchema, change)).toEqual('name' in change ? { name: 'Board B' } : change)
    expect(messages(PlaceUpdateSchema, {})).toEqual(['Nothing to change.'])
    expect(messages(PlaceUpdateSchema, { name: '' })).toEqual(['Name is required.'])
    expect(messages(PlaceUpdateSchema, { name: 'x'.repeat(81) })).toEqual(['Name is too long.'])
    expect(messages(PlaceUpdateSchema, { stocktakeEvery: 'WEEKLY' })).toEqual([
      'Interval must be MONTHLY or QUARTERLY.',
    ])
    expect(messages(PlaceUpdateSchema, { parentId: 'p1' })).toEqual(['Malformed id.'])
    expect(v.is(PlaceUpdateSchema, { kind: 'ROOM' })).toBe(false)
  })
})

describe('hook codes, exactly', () => {
  it('takes letters and digits in dash-separated groups of any length', () => {
    for (const [code, kept] of [
      ['12', '12'],
      ['ab-12', 'AB-12'],
      ['b-3-07', 'B-3-07'],
      ['Z9', 'Z9'],
      ['x'.repeat(16), 'X'.repeat(16)],
    ])
      expect(v.parse(HookCodeSchema, code)).toBe(kept)
  })

  it('says what is wrong', () => {
    expect(messages(HookCodeSchema, '  ')).toEqual([
      'Code is required.',
      'A hook code holds letters, digits and single dashes.',
    ])
    expect(messages(HookCodeSchema, 'A'.repeat(17))).toEqual(['Code is too long.'])
    for (const bad of ['A--1', '-A', 'A-', 'A 1', 'A_1', 'É1'])
      expect(messages(HookCodeSchema, bad), bad).toEqual([
        'A hook code holds letters, digits and single dashes.',
      ])
  })
})

describe('hook ranges, exactly', () => {
  const range = { prefix: 'A-', from: 1, to: 60 }

  it('takes an empty prefix or letters and digits with one trailing dash, up to 8 characters', () => {
    for (const [prefix, kept] of [
      ['', ''],
      ['ab', 'AB'],
      ['b1-', 'B1-'],
      [' 7 ', '7'],
      ['abcdefgh', 'ABCDEFGH'],
    ])
      expect(v.parse(HookRangeSchema, { ...range, prefix }).prefix, prefix).toBe(kept)
    expect(messages(HookRangeSchema, { ...range, prefix: 'abcdefghi' })).toEqual(['Prefix is too long.'])
    for (const prefix of ['-', '-A', 'A--', 'A-B', 'A B', 'A_'])
      expect(messages(HookRangeSchema, { ...range, prefix }), prefix).toEqual([
        'A prefix holds letters and digits, and may end with a dash.',
      ])
  })

  it('numbers from 0 to 9999 in whole numbers, 1 to 4 digits wide', () => {
    expect(v.parse(HookRangeSchema, { prefix: '', from: 0, to: 0, width: 1 })).toEqual({
      prefix: '',
      from: 0,
      to: 0,
      width: 1,
    })
    expect(v.is(HookRangeSchema, { prefix: '', from: 9999, to: 9999, width: 4 })).toBe(true)
    expect(messages(HookRangeSchema, { ...range, from: 1.5 })).toEqual(['From must be a whole number.'])
    expect(messages(HookRangeSchema, { ...range, to: 60.5 })).toEqual(['To must be a whole number.'])
    for (const wrong of [
      { from: -1 },
      { to: 10_000, from: 9_999 },
      { width: 0 },
      { width: 5 },
      { width: 1.5 },
      { from: '1' },
    ])
      expect(v.is(HookRangeSchema, { ...range, ...wrong }), JSON.stringify(wrong)).toBe(false)
    expect(v.is(HookRangeSchema, { ...range, step: 2 })).toBe(false)
  })

  it('runs forwards, and at most 500 hooks at once', () => {
    expect(messages(HookRangeSchema, { ...range, from: 5, to: 4 })).toEqual([
      'The range ends before it starts.',
    ])
    expect(v.is(HookRangeSchema, { ...range, from: 0, to: 499 })).toBe(true)
    expect(messages(HookRangeSchema, { ...range, from: 0, to: 500 })).toEqual(['At most 500 hooks at once.'])
    expect(messages(HookRangeSchema, { ...range, from: 9000, to: 9500 })).toEqual([
      'At most 500 hooks at once.',
    ])
  })
})

describe('a hook as a keychain home', () => {
  it('names a board and its hook by their ids', () => {
    expect(v.parse(HookParamsSchema, { id: UUID, hookId: UUID_2 })).toEqual({ id: UUID, hookId: UUID_2 })
    expect(messages(HookParamsSchema, { id: UUID, hookId: 'h1' })).toEqual(['Malformed id.'])
    expect(messages(HookParamsSchema, { id: 'p1', hookId: UUID })).toEqual(['Malformed id.'])
  })

  it('sets a home hook or none', () => {
    expect(v.parse(KeychainHomeSchema, { hookId: UUID })).toEqual({ hookId: UUID })
    expect(v.parse(KeychainHomeSchema, { hookId: null })).toEqual({ hookId: null })
    expect(v.is(KeychainHomeSchema, {})).toBe(false)
    expect(messages(KeychainHomeSchema, { hookId: 'h1' })).toEqual(['Malformed id.'])
    expect(v.is(KeychainHomeSchema, { hookId: null, placeId: null })).toBe(false)
  })

  it('keeps where a keychain is whole', () => {
    const location = {
      whereabouts: 'MISPLACED',
      home: hookRef,
      seenOn: { ...hookRef, id: 'h2' },
      seenAt: 's',
      seenBy: person,
    }
    keeps(KeychainLocationSchema, location)
    for (const whereabouts of ['HELD', 'AT_HOME', 'UNKNOWN'])
      keeps(KeychainLocationSchema, { whereabouts, home: null, seenOn: null, seenAt: null, seenBy: null })
    expect(v.is(KeychainLocationSchema, { ...location, whereabouts: 'LOST' })).toBe(false)
    for (const outcome of ['HOME', 'MISPLACED', 'NEW_HOME'])
      keeps(HookScanResultSchema, { outcome, location })
    expect(v.is(HookScanResultSchema, { outcome: 'FOUND', location })).toBe(false)
  })
})

describe('a hook scan after a return', () => {
  it('takes a trimmed value of at most 512 characters, not making it home unless asked', () => {
    expect(v.parse(HookScanSchema, { value: ` h:${ID} ` })).toEqual({ value: `h:${ID}`, makeHome: false })
    expect(v.parse(HookScanSchema, { value: 'x', makeHome: true })).toEqual({ value: 'x', makeHome: true })
    expect(v.is(HookScanSchema, { value: 'x'.repeat(512) })).toBe(true)
    expect(messages(HookScanSchema, { value: 'x'.repeat(513) })).toEqual(['Too long.'])
    expect(messages(HookScanSchema, { value: '  ' })).toEqual(['Scan a hook label.'])
    expect(v.is(HookScanSchema, { value: 'x', makeHome: 'yes' })).toBe(false)
    expect(v.is(HookScanSchema, { value: 'x', hookId: UUID })).toBe(false)
  })
})

describe('printing hook labels', () => {
  it('takes a known format, the hooks chosen (at most 2000) and the board’s own label by default', () => {
    for (const format of LABEL_FORMAT_IDS)
      expect(v.parse(HookLabelPrintSchema, { format })).toEqual({ format, withPlace: true })
    expect(v.parse(HookLabelPrintSchema, { format: 'a4-sheet', hookIds: [UUID], withPlace: false })).toEqual({
      format: 'a4-sheet',
      hookIds: [UUID],
      withPlace: false,
    })
    expect(messages(HookLabelPrintSchema, { format: 'letter' })).toEqual([
      'Unknown label format: choose one of a4-sheet, avery-l7160, brother-62x29, dymo-11352.',
    ])
    expect(v.is(HookLabelPrintSchema, { format: 'a4-sheet', hookIds: Array(2000).fill(UUID) })).toBe(true)
    expect(v.is(HookLabelPrintSchema, { format: 'a4-sheet', hookIds: Array(2001).fill(UUID) })).toBe(false)
    expect(messages(HookLabelPrintSchema, { format: 'a4-sheet', hookIds: ['h1'] })).toEqual(['Malformed id.'])
    expect(v.is(HookLabelPrintSchema, { format: 'a4-sheet', copies: 2 })).toBe(false)
  })
})

describe('location label values, exactly', () => {
  it('are 16 lowercase base32 characters', () => {
    for (const id of [ID, 'zzzzzzzzzzzzzzzz', 'a7a7a7a7a7a7a7a7', '2222222222222222'])
      expect(LOCATION_PUBLIC_ID_PATTERN.test(id), id).toBe(true)
    for (const id of [
      EDGES,
      `${ID}a`,
      ID.slice(1),
      'abcdefghijklmn01',
      'abcdefghijklmn28',
      ` ${ID.slice(1)}`,
    ])
      expect(LOCATION_PUBLIC_ID_PATTERN.test(id), id).toBe(false)
  })

  it('put the hook or place id under the public address, without doubling its slashes', () => {
    expect(hookLabelUrl('https://keys.example//', ID)).toBe(`https://keys.example/h/${ID}`)
    expect(placeLabelUrl('https://keys.example//', ID)).toBe(`https://keys.example/p/${ID}`)
    expect(hookLabelUrl('https://keys.example/app', ID)).toBe(`https://keys.example/app/h/${ID}`)
    expect(placeLabelUrl('https://keys.example/app/', ID)).toBe(`https://keys.example/app/p/${ID}`)
  })

  it('read every letter and digit of the alphabet, in either case, scanned or typed', () => {
    const publicId = EDGES.toLowerCase()
    expect(parseLocationLabel(`https://keys.example/h/${EDGES}`)).toEqual({ kind: 'hook', publicId })
    expect(parseLocationLabel(`HTTPS://KEYS.EXAMPLE/p/${EDGES}`)).toEqual({ kind: 'place', publicId })
    expect(parseLocationLabel(`h:${EDGES}`)).toEqual({ kind: 'hook', publicId })
    expect(parseLocationLabel(`P:${EDGES}`)).toEqual({ kind: 'place', publicId })
    expect(parseLocationLabel(`p:${ID}`)).toEqual({ kind: 'place', publicId: ID })
  })

  it('refuse a label with anything before or after the id', () => {
    for (const value of [
      `https://keys.example/x/h/${ID}`,
      `https://keys.example/h/${ID}/x`,
      `https://keys.example/h/${ID}a`,
      `https://keys.example/h/${ID.slice(1)}`,
      `https://keys.example/H/${ID}`,
      `https://keys.example/h/${ID.slice(1)}1`,
      `https://keys.example/h/${ID.slice(1)}8`,
      `xhttps://keys.example/h/${ID}`,
      `ftp://keys.example/h/${ID}`,
      `x:${ID}`,
      `hp:${ID}`,
      `xh:${ID}`,
      `h:${ID}x`,
      `h:${ID.slice(1)}`,
      `h:${ID.slice(1)}1`,
      `h:${ID.slice(1)}8`,
      `h: ${ID}`,
    ])
      expect(parseLocationLabel(value), value).toBeNull()
  })
})
