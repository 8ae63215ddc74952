import 'fake-indexeddb/auto'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Transfer } from '../../contract/transfers.ts'
import {
  ADMIN,
  CAVE_TAG,
  CONTACT,
  CUSTODIAN,
  keychain,
  keyOf,
  NOW,
  ORG,
  OTHER_ORG,
  summary,
  tag,
  transfer,
} from '../../tests/offline-rows.ts'
import { startEachWithAnEmptyMirror } from '../../tests/sync-pages.ts'
import { offlineDb, withDb } from './db.ts'
import {
  asMirroredTag,
  claimMirror,
  mirrorKeychain,
  mirrorKeychainSummaries,
  mirrorTransfers,
} from './mirror.ts'
import { resolveScanOffline } from './scan-offline.ts'
import { putTags } from './tag-store.ts'

/**
 * A scan resolved from the mirror, as the server would: who may see the tag, which actions it offers, and which
 * of the keychain's transfers it shows. The mirrored transfer's window: 2026-11-21T23:00Z to 2026-11-23T23:00Z;
 * NOW is inside it.
 */

const ADMIN_RIGHTS = [
  'read__tag',
  'read__keychain',
  'update__keychain',
  'create__transfer',
  'pickup__transfer',
]

const scan = (overrides: Partial<Parameters<typeof resolveScanOffline>[0]> = {}) =>
  resolveScanOffline({
    organizationId: ORG,
    userId: ADMIN,
    value: 'AGC-00042',
    scanId: 'scan-1',
    permissions: ADMIN_RIGHTS,
    now: NOW,
    ...overrides,
  })

const to = (userId: string) => ({ ...transfer('x').recipient, id: userId })
const window = (startsAt: string, endsAt: string) => ({ startsAt, endsAt })

/** The transfer a resolved scan shows (undefined: not resolved). */
const shown = async (overrides: Partial<Parameters<typeof resolveScanOffline>[0]> = {}) => {
  const result = await scan(overrides)
  return result.status === 'resolved' ? result.transfer : undefined
}

const mirror = (transfers: Transfer[], userId = ADMIN) => mirrorTransfers(transfers, userId)

startEachWithAnEmptyMirror()

afterEach(() => {
  vi.useRealTimers()
})

describe('which transfer a scan shows', () => {
  it('shows none when the keychain has no transfer open or ahead', async () => {
    await mirror([
      transfer('tr-returned', { status: 'RETURNED', next: null }),
      transfer('tr-cancelled', { status: 'CANCELLED', next: null }),
      transfer('tr-ended', window('2026-11-20T23:00:00.000Z', '2026-11-22T10:00:00.000Z')),
    ])
    expect(await scan()).toMatchObject({ status: 'resolved', transfer: null })
  })

  it.each(['TRANSFERRED', 'RETURNING'] as const)(
    'shows the transfer that is out (%s) before any scheduled one',
    async (status) => {
      await mirror([
        transfer('tr-scheduled'),
        transfer('tr-out', { status, next: 'RETURN', recipient: to(ADMIN) }),
      ])
      expect(await shown()).toMatchObject({ id: 'tr-out', status, next: 'RETURN' })
    },
  )

  it('shows the caller’s own open transfer before an earlier one of someone else', async () => {
    await mirror([
      // Ids in this order: the device reads the keychain's transfers by id.
      transfer('tr-a-other', window('2026-11-21T23:00:00.000Z', '2026-11-23T23:00:00.000Z')),
      transfer('tr-b-mine', {
        ...window('2026-11-22T09:00:00.000Z', '2026-11-23T23:00:00.000Z'),
        recipient: to(ADMIN),
      }),
    ])
    expect(await shown()).toMatchObject({ id: 'tr-b-mine', next: 'PICKUP', refusal: null })
  })

  it('does not take for the caller’s open transfer one that is not scheduled, or not open yet', async () => {
    await mirror([
      transfer('tr-returned', { status: 'RETURNED', next: null, recipient: to(ADMIN) }),
      transfer('tr-later', {
        ...window('2026-11-22T12:00:00.000Z', '2026-11-24T23:00:00.000Z'),
        recipient: to(ADMIN),
      }),
      transfer('tr-other', window('2026-11-22T09:00:00.000Z', '2026-11-23T23:00:00.000Z')),
    ])
    expect(await shown()).toMatchObject({ id: 'tr-other' })
  })

  it('shows else the scheduled transfer that starts first, among those not ended', async () => {
    await mirror([
      transfer('tr-third', window('2026-11-26T23:00:00.000Z', '2026-11-27T23:00:00.000Z')),
      transfer('tr-ended', window('2026-11-19T23:00:00.000Z', '2026-11-22T09:00:00.000Z')),
      transfer('tr-first', window('2026-11-24T23:00:00.000Z', '2026-11-25T23:00:00.000Z')),
      transfer('tr-second', window('2026-11-25T23:00:00.000Z', '2026-11-26T23:00:00.000Z')),
    ])
    expect(await shown()).toMatchObject({ id: 'tr-first', next: null, refusal: 'before_window' })
  })

  it('shows no transfer whose window ends now', async () => {
    await mirror([transfer('tr-1')])
    expect(await shown({ now: new Date('2026-11-23T23:00:00.000Z') })).toBeNull()
    expect(await shown({ now: new Date('2026-11-23T22:59:59.999Z') })).toMatchObject({ id: 'tr-1' })
  })
})

describe('the pickup a scan offers', () => {
  it('offers the recipient the pickup once the window is open, though the mirror had it refused before it', async () => {
    await claimMirror(CONTACT)
    await mirror([transfer('tr-1', { next: null, refusal: 'before_window' })], CONTACT)
    expect(await shown({ userId: CONTACT, permissions: [] })).toMatchObject({ next: 'PICKUP', refusal: null })
  })

  it('leaves a transfer of someone else inside its window as the server said', async () => {
    await mirror([transfer('tr-1', { next: null, refusal: 'not_member' })])
    expect(await shown()).toMatchObject({ id: 'tr-1', next: null, refusal: 'not_member' })
    await mirror([transfer('tr-1', { next: 'PICKUP', refusal: null })])
    expect(await shown()).toMatchObject({ id: 'tr-1', next: 'PICKUP', refusal: null })
  })

  it('refuses the pickup of a transfer out before its window or after it', async () => {
    await mirror([transfer('tr-1', { status: 'RETURNING', next: 'PICKUP' })])
    expect(await shown({ now: new Date('2026-11-21T22:59:59.999Z') })).toMatchObject({
      id: 'tr-1',
      next: null,
      refusal: 'before_window',
    })
    expect(await shown({ now: new Date('2026-11-23T23:00:00.000Z') })).toMatchObject({
      id: 'tr-1',
      next: null,
      refusal: 'window_closed',
    })
    expect(await shown({ now: new Date('2026-11-21T23:00:00.000Z') })).toMatchObject({
      next: 'PICKUP',
      refusal: null,
    })
  })

  it('leaves a return as the server said, whatever the window', async () => {
    await mirror([transfer('tr-1', { status: 'TRANSFERRED', next: 'RETURN', refusal: null })])
    expect(await shown({ now: new Date('2026-12-01T00:00:00.000Z') })).toMatchObject({
      next: 'RETURN',
      refusal: null,
    })
  })

  it('reads the device’s clock when no time is given', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    await claimMirror(CONTACT)
    await mirror([transfer('tr-1')], CONTACT)
    vi.setSystemTime(new Date('2026-11-21T12:00:00.000Z'))
    expect(await shown({ userId: CONTACT, permissions: [], now: undefined })).toMatchObject({
      refusal: 'before_window',
    })
    vi.setSystemTime(NOW)
    expect(await shown({ userId: CONTACT, permissions: [], now: undefined })).toMatchObject({
      next: 'PICKUP',
    })
    vi.setSystemTime(new Date('2026-11-24T00:00:00.000Z'))
    expect(await scan({ userId: CONTACT, permissions: [], now: undefined })).toMatchObject({
      status: 'foreign',
    })
  })
})

describe('who a scan resolves for', () => {
  const asContact = (overrides: Partial<Parameters<typeof resolveScanOffline>[0]> = {}) =>
    scan({ userId: CONTACT, permissions: ['pickup__transfer'], ...overrides })

  beforeEach(async () => {
    await claimMirror(CONTACT)
  })

  it.each(['TRANSFERRED', 'RETURNING'] as const)(
    'resolves for the recipient of a transfer out (%s), even past its window',
    async (status) => {
      await mirror([transfer('tr-1', { status, next: 'RETURN' })], CONTACT)
      expect(await asContact({ now: new Date('2026-12-01T00:00:00.000Z') })).toMatchObject({
        status: 'resolved',
        transfer: { id: 'tr-1', status },
      })
    },
  )

  it('resolves for the recipient of a scheduled transfer before its window, with the pickup refused', async () => {
    await mirror([transfer('tr-1')], CONTACT)
    expect(await asContact({ now: new Date('2026-11-20T00:00:00.000Z') })).toMatchObject({
      status: 'resolved',
      actions: ['pickup__transfer'],
      transfer: { id: 'tr-1', next: null, refusal: 'before_window' },
    })
  })

  it('answers foreign to a contact for a cancelled transfer, or one to someone else', async () => {
    await mirror([transfer('tr-1', { status: 'CANCELLED', next: null })], CONTACT)
    expect(await asContact()).toEqual({ status: 'foreign', scanId: 'scan-1', publicId: CAVE_TAG.publicId })
    await mirror([transfer('tr-1', { recipient: to(ADMIN) })], CONTACT)
    expect(await asContact()).toMatchObject({ status: 'foreign' })
  })

  it('answers foreign to a role that reads tags, for a tag of another organization found by its QR', async () => {
    await mirror([transfer('tr-1', { organizationId: OTHER_ORG, recipient: to(ADMIN) })], CONTACT)
    expect(await scan({ userId: CONTACT, value: CAVE_TAG.url })).toMatchObject({ status: 'foreign' })
  })

  it('offers a recipient in the transfer’s own organization the actions of their role there', async () => {
    await mirror([transfer('tr-1')], CONTACT)
    expect(
      await asContact({ permissions: ['create__scan', 'pickup__transfer', 'update__keychain'] }),
    ).toMatchObject({
      status: 'resolved',
      actions: ['update__keychain', 'pickup__transfer'],
    })
  })
})

describe('what a resolved scan shows of the tag', () => {
  it('shows the key that carries the tag and the keychain’s custodian, from the keychain’s detail', async () => {
    await withDb((db) => putTags(db, [asMirroredTag(ORG, CAVE_TAG)]))
    const carrying = keyOf('Cave', CAVE_TAG)
    await mirrorKeychain(
      keychain('kc-cave', {
        custodian: CUSTODIAN,
        keys: [
          keyOf('Boîte', null),
          keyOf('Porte', tag('AGC-00041', 'ffffffffffffffffffff', 'kc-cave')),
          carrying,
        ],
      }),
    )
    expect(await scan()).toEqual({
      status: 'resolved',
      scanId: 'scan-1',
      tag: CAVE_TAG,
      key: carrying,
      keychain: { id: 'kc-cave', name: 'Keychain kc-cave', custodian: CUSTODIAN },
      actions: ['read__keychain', 'update__keychain', 'create__transfer', 'pickup__transfer'],
      transfer: null,
    })
  })

  it('shows the custodian from the keychain’s list row when the device has no detail', async () => {
    await withDb((db) => putTags(db, [asMirroredTag(ORG, CAVE_TAG)]))
    await mirrorKeychainSummaries(ORG, [{ ...summary('kc-cave'), custodian: CUSTODIAN }])
    expect(await scan()).toMatchObject({
      key: null,
      keychain: { id: 'kc-cave', custodian: CUSTODIAN },
    })
  })

  it('shows no custodian for a keychain the feed wrote without one', async () => {
    await withDb((db) => putTags(db, [asMirroredTag(ORG, CAVE_TAG)]))
    await offlineDb().keychains.put({
      id: 'kc-cave',
      organizationId: ORG,
      summary: null,
      detail: keychain('kc-cave'),
    })
    expect(await scan()).toMatchObject({ key: null, keychain: { id: 'kc-cave', custodian: null } })
  })

  it('shows a tag on no key without keychain, key or transfer, and only to a role that reads tags', async () => {
    const loose = tag('AGC-00043', 'gggggggggggggggggggg', null)
    await withDb((db) => putTags(db, [asMirroredTag(ORG, loose)]))
    expect(await scan({ value: 'AGC-00043', permissions: ['read__tag'] })).toEqual({
      status: 'resolved',
      scanId: 'scan-1',
      tag: loose,
      key: null,
      keychain: null,
      actions: [],
      transfer: null,
    })
    expect(await scan({ value: 'AGC-00043', userId: CONTACT, permissions: ['pickup__transfer'] })).toEqual({
      status: 'foreign',
      scanId: 'scan-1',
      publicId: 'gggggggggggggggggggg',
    })
  })

  it('knows nothing of a value that is no tag', async () => {
    expect(await scan({ value: 'hello' })).toEqual({ status: 'unknown', scanId: 'scan-1', value: 'hello' })
  })
})

describe('a lost tag', () => {
  const LOST_AT = '2026-11-22T08:00:00.000Z'
  const apply = async (tags: ReturnType<typeof tag>[]) => {
    const { applyExpecting, page } = await import('../../tests/sync-pages.ts')
    const { readSyncState } = await import('./apply.ts')
    await applyExpecting(page({ tags }), await withDb(readSyncState))
  }

  it('answers lost by code and by QR once the change feed says so, and resolves again once undone', async () => {
    await mirrorKeychain(keychain('kc-cave', { keys: [keyOf('Porte', CAVE_TAG)] }))
    await apply([{ ...CAVE_TAG, lostAt: LOST_AT }])
    const lost = { id: CAVE_TAG.id, code: CAVE_TAG.code, name: CAVE_TAG.name, lostAt: LOST_AT }
    expect(await scan()).toEqual({ status: 'lost', scanId: 'scan-1', tag: lost })
    expect(await scan({ value: CAVE_TAG.url })).toEqual({ status: 'lost', scanId: 'scan-1', tag: lost })
    // A member without actions gets the same: nothing to do with a lost tag.
    expect(await scan({ permissions: ['read__tag'], userId: CUSTODIAN.id })).toMatchObject({ status: 'lost' })
    await apply([CAVE_TAG])
    expect(await scan()).toMatchObject({ status: 'resolved', keychain: { id: 'kc-cave' } })
  })

  it('is still another organization’s tag for a caller who cannot read it', async () => {
    await withDb((db) => putTags(db, [asMirroredTag(OTHER_ORG, { ...CAVE_TAG, lostAt: LOST_AT })]))
    expect(await scan({ value: CAVE_TAG.publicId })).toMatchObject({ status: 'foreign' })
  })
})
