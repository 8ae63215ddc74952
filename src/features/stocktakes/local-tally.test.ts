import { describe, expect, it } from 'vitest'
import type { StocktakeDetail, StocktakeItem } from '../../../contract/stocktakes.ts'
import { withLocalScans } from './local-tally.ts'

const hook = (id: string) => ({ id, code: id.toUpperCase(), placeId: 'board', placeName: 'Board' })
const item = (id: string, state: StocktakeItem['state'] = 'PENDING', hookId = `h-${id}`): StocktakeItem => ({
  keychain: { id, name: `Keychain ${id}`, tagCodes: [] },
  state,
  expectedHook: hook(hookId),
  foundHook: null,
  foundAt: null,
  foundBy: null,
})

const detail = (items: StocktakeItem[], unexpected: string[] = []): StocktakeDetail => ({
  id: 'st',
  status: 'OPEN',
  scope: null,
  startedAt: '2026-11-29T08:00:00.000Z',
  startedBy: null,
  closedAt: null,
  closedBy: null,
  counts: {
    expected: items.length,
    found: items.filter((each) => each.state === 'FOUND').length,
    misplaced: items.filter((each) => each.state === 'MISPLACED').length,
    missing: items.filter((each) => each.state === 'PENDING').length,
    unexpected: unexpected.length,
  },
  boards: [],
  items,
  unexpected: unexpected.map((id) => ({
    keychain: { id, name: id, tagCodes: [] },
    value: id,
    hook: null,
    scannedAt: '2026-11-29T08:01:00.000Z',
    scannedBy: null,
  })),
  devices: [],
  scanCount: unexpected.length,
})

const tag = (keychainId: string | null, hookId: string | null = null) => ({
  kind: 'tag' as const,
  keychainId,
  hookId,
})

describe('the tally with this device’s unsent scans', () => {
  it('counts a keychain found on its hook, with no hook, or misplaced on another, each once', () => {
    const tally = withLocalScans(detail([item('a'), item('b'), item('c'), item('d')]), [
      { kind: 'hook' },
      tag('a', 'h-a'),
      tag('b'),
      tag('c', 'h-a'),
      tag('a', 'h-x'),
      tag('c', 'h-c'),
    ])
    expect(tally.counts).toEqual({ expected: 4, found: 2, misplaced: 1, missing: 1, unexpected: 0 })
    expect(tally.items.map((each) => each.state)).toEqual(['FOUND', 'FOUND', 'MISPLACED', 'PENDING'])
    expect(tally.waiting).toBe(3)
  })

  it('leaves what the server already counted as it is', () => {
    const tally = withLocalScans(detail([item('a', 'MISPLACED'), item('b', 'FOUND')], ['z']), [
      tag('a', 'h-a'),
      tag('b', 'h-x'),
      tag('z'),
    ])
    expect(tally.counts).toEqual({ expected: 2, found: 1, misplaced: 1, missing: 0, unexpected: 1 })
    expect(tally.waiting).toBe(0)
  })

  it('counts a keychain from elsewhere once, and every unknown tag', () => {
    const tally = withLocalScans(detail([item('a')]), [
      tag('elsewhere'),
      tag('elsewhere'),
      tag(null),
      tag(null),
    ])
    expect(tally.counts).toMatchObject({ unexpected: 3, missing: 1 })
    expect(tally.waiting).toBe(3)
  })

  it('counts a keychain whose home hook is gone as found with no hook scanned, misplaced on any hook', () => {
    const homeless = { ...item('a'), expectedHook: null }
    expect(withLocalScans(detail([homeless]), [tag('a')]).counts.found).toBe(1)
    expect(withLocalScans(detail([homeless]), [tag('a', 'h-x')]).counts.misplaced).toBe(1)
  })

  it('counts what a closed stocktake missed as missing', () => {
    const closed = {
      ...detail([item('a', 'MISSING'), item('b', 'MISSING'), item('c', 'FOUND')]),
      status: 'CLOSED' as const,
    }
    expect(withLocalScans(closed, []).counts).toMatchObject({ expected: 3, found: 1, missing: 2 })
  })

  it('shows the server’s tally when nothing waits', () => {
    const server = detail([item('a', 'FOUND'), item('b')])
    expect(withLocalScans(server, []).counts).toEqual(server.counts)
  })
})
