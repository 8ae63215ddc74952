import 'fake-indexeddb/auto'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Keychain } from '../../contract/keychains.ts'
import type { SyncPage } from '../../contract/sync.ts'
import { ADMIN, CAVE_TAG, CONTACT, NOW, ORG, OTHER_ORG, tag, transfer } from '../../tests/offline-rows.ts'
import { applySyncPage, readSyncState, type SyncState } from './apply.ts'
import { resetOfflineDbForTests, withDb } from './db.ts'
import { claimMirror, mirroredKeychainSummaries, mirroredTransfer, mirrorTransfers } from './mirror.ts'
import { enqueue } from './outbox.ts'
import { refreshAlongside } from './refresh.ts'
import { resolveScanOffline } from './scan-offline.ts'
import { syncMirror } from './sync.ts'
import { useSyncProgress } from './sync-progress.ts'
import { allTags } from './tag-store.ts'

const keychain = (id: string, overrides: Partial<Keychain> = {}): Keychain => ({
  id,
  organizationId: ORG,
  organizationName: 'Syndic des Archives',
  name: `Keychain ${id}`,
  custodian: null,
  keys: [],
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
  ...overrides,
})

const page = (overrides: Partial<SyncPage> = {}): SyncPage => ({
  reset: false,
  phase: 'changes',
  organizationId: ORG,
  keychains: [],
  tags: [],
  transfers: [],
  deleted: { keychains: [] },
  cursor: `cursor-${Math.random()}`,
  more: false,
  progress: null,
  ...overrides,
})

const counts = () =>
  withDb(async (db) => ({
    keychains: await db.keychains.count(),
    tags: (await allTags(db)).length,
    transfers: await db.transfers.count(),
  }))

/** Applies pages one after the other as `syncMirror` does, from the stored state. */
async function apply(pages: SyncPage[], userId = ADMIN, readsTags = true): Promise<SyncState | null> {
  let state: SyncState | null = null
  for (const each of pages) {
    const expected = await withDb(readSyncState)
    state = await withDb((db) =>
      applySyncPage(db, { page: each, userId, expected, requestedAt: NOW.toISOString(), readsTags }),
    )
  }
  return state
}

const snapshotOf = (rows: Partial<SyncPage>) => [
  page({ reset: true, phase: 'snapshot', more: true, progress: { done: 1, total: 1 }, ...rows }),
  page({ phase: 'changes' }),
]

beforeEach(async () => {
  await resetOfflineDbForTests()
  await claimMirror(ADMIN)
})

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('applying the change feed', () => {
  it('a full sync replaces the mirror: what it did not send again goes once its snapshot ends', async () => {
    await apply(
      snapshotOf({
        tags: [CAVE_TAG, tag('AGC-00050', 'bbbbbbbbbbbbbbbbbbbb', null)],
        keychains: [keychain('kc-cave'), keychain('kc-gone')],
        transfers: [transfer('tr-1'), transfer('tr-gone')],
      }),
    )
    expect(await counts()).toEqual({ keychains: 2, tags: 2, transfers: 2 })
    // A keychain's summary is made from its detail.
    expect((await mirroredKeychainSummaries(ORG)).map((each) => [each.id, each.keyCount])).toEqual([
      ['kc-cave', 0],
      ['kc-gone', 0],
    ])

    const [first, last] = snapshotOf({
      tags: [CAVE_TAG],
      keychains: [keychain('kc-cave')],
      transfers: [transfer('tr-1')],
    })
    await apply([first!])
    // Until the snapshot ends, the device keeps everything it had (it may go offline half-way).
    expect(await counts()).toEqual({ keychains: 2, tags: 2, transfers: 2 })
    await apply([last!])
    expect(await counts()).toEqual({ keychains: 1, tags: 1, transfers: 1 })
    expect(await mirroredTransfer('tr-gone')).toBeUndefined()
  })

  it('applies changes: upserts, deleted keychains, and never sweeps outside a full sync', async () => {
    await apply(snapshotOf({ keychains: [keychain('kc-a'), keychain('kc-b')], tags: [CAVE_TAG] }))
    await apply([
      page({ keychains: [keychain('kc-a', { name: 'Renamed' })], deleted: { keychains: ['kc-b'] } }),
    ])
    expect((await mirroredKeychainSummaries(ORG)).map((each) => each.name)).toEqual(['Renamed'])
    expect(await counts()).toEqual({ keychains: 1, tags: 1, transfers: 0 })
  })

  it('forgets what a role may no longer read, and keeps the tags of the keychains lent to the user', async () => {
    await claimMirror(CONTACT)
    await apply(
      snapshotOf({
        tags: [tag('AGC-00050', 'bbbbbbbbbbbbbbbbbbbb', null)],
        keychains: [keychain('kc-cave')],
        transfers: [transfer('tr-1')],
      }),
      CONTACT,
    )
    await apply(snapshotOf({ transfers: [transfer('tr-1')] }), CONTACT, false)
    expect(await mirroredKeychainSummaries(ORG)).toEqual([])
    expect((await withDb(allTags)).map((each) => each.code)).toEqual(['AGC-00042'])

    // The tag taken off the lent keychain is forgotten: the transfer now lists none.
    const bare = transfer('tr-1', { keychain: { id: 'kc-cave', name: 'Cave', tags: [] } })
    await apply([page({ transfers: [bare] })], CONTACT, false)
    expect(await counts()).toEqual({ keychains: 0, tags: 0, transfers: 1 })
    const scan = await resolveScanOffline({
      organizationId: ORG,
      userId: CONTACT,
      value: 'AGC-00042',
      scanId: 'scan-1',
      permissions: ['pickup__transfer'],
      now: NOW,
    })
    expect(scan.status).toBe('unknown')
  })

  it('keeps, through a full sync of the selected organization, the requests addressed to the user elsewhere', async () => {
    await claimMirror(CONTACT)
    const elsewhere = transfer('tr-elsewhere', {
      organizationId: OTHER_ORG,
      keychain: {
        id: 'kc-other',
        name: 'Ailleurs',
        tags: [tag('OTH-00001', 'cccccccccccccccccccc', 'kc-other')],
      },
    })
    await mirrorTransfers([elsewhere], CONTACT)
    await apply(snapshotOf({ transfers: [transfer('tr-1')] }), CONTACT, false)
    expect((await mirroredTransfer('tr-elsewhere'))?.organizationId).toBe(OTHER_ORG)
    expect(await counts()).toEqual({ keychains: 0, tags: 2, transfers: 2 })
    const scan = await resolveScanOffline({
      organizationId: ORG,
      userId: CONTACT,
      value: 'https://trousseau.test/tags/cccccccccccccccccccc',
      scanId: 'scan-2',
      permissions: ['pickup__transfer'],
      now: NOW,
    })
    expect(scan.status === 'resolved' && scan.keychain?.name).toBe('Keychain kc-other')
  })

  it('writes nothing once the mirror changed hands, or when another tab moved the cursor meanwhile', async () => {
    await claimMirror(CONTACT)
    expect(await apply(snapshotOf({ keychains: [keychain('kc-a')] }))).toBeNull()
    await claimMirror(ADMIN)
    await apply(snapshotOf({ keychains: [keychain('kc-a')] }))
    const stale: SyncState = { ...(await withDb(readSyncState))!, cursor: 'an-older-cursor' }
    const written = await withDb((db) =>
      applySyncPage(db, {
        page: page({ keychains: [keychain('kc-b')] }),
        userId: ADMIN,
        expected: stale,
        requestedAt: NOW.toISOString(),
        readsTags: true,
      }),
    )
    expect(written).toBeNull()
    expect(await counts()).toMatchObject({ keychains: 1 })
  })

  it('keeps the device’s picture of a transfer whose pickup waits in the outbox, or was sent since the page was asked for', async () => {
    await claimMirror(CONTACT)
    await apply(snapshotOf({ transfers: [transfer('tr-1')] }), CONTACT, false)
    const provisional = transfer('tr-1', { status: 'TRANSFERRED', next: null, refusal: 'own_return' })
    await mirrorTransfers([provisional], CONTACT)
    const item = await enqueue({
      kind: 'pickup',
      userId: CONTACT,
      organizationId: ORG,
      value: 'tr-1',
      label: 'Cave',
    })
    await apply([page({ transfers: [transfer('tr-1')] })], CONTACT, false)
    expect((await mirroredTransfer('tr-1'))?.status).toBe('TRANSFERRED')
    // A full sync does not sweep it either.
    await apply(snapshotOf({ transfers: [] }), CONTACT, false)
    expect((await mirroredTransfer('tr-1'))?.status).toBe('TRANSFERRED')

    // Sent before the page was asked for: the page is newer, it wins.
    await withDb((db) =>
      db.outbox.update(item.id, { status: 'sent', sentAt: new Date(NOW.getTime() - 1000).toISOString() }),
    )
    await apply([page({ transfers: [transfer('tr-1')] })], CONTACT, false)
    expect((await mirroredTransfer('tr-1'))?.status).toBe('SCHEDULED')
  })
})

describe('syncMirror', () => {
  const context = { userId: ADMIN, organizationId: ORG, permissions: ['read__tag', 'read__keychain'] }

  function serve(pages: SyncPage[]) {
    const asked: (string | null)[] = []
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        const address = new URL(url, 'http://localhost')
        if (address.pathname !== '/api/sync/changes') return new Response('{}', { status: 404 })
        asked.push(address.searchParams.get('cursor'))
        const next = pages.shift()
        return next ? Response.json(next) : new Response('{}', { status: 500 })
      }),
    )
    return asked
  }

  it('reads pages until the feed says there is no more, each from the cursor the last one gave', async () => {
    const asked = serve([
      page({
        reset: true,
        phase: 'snapshot',
        more: true,
        progress: { done: 1, total: 3 },
        cursor: 'c1',
        keychains: [keychain('kc-a')],
      }),
      page({
        phase: 'snapshot',
        more: true,
        progress: { done: 3, total: 3 },
        cursor: 'c2',
        tags: [CAVE_TAG],
      }),
      page({ cursor: 'c3' }),
    ])
    expect(await syncMirror(context)).toBe('synced')
    expect(asked).toEqual([null, 'c1', 'c2'])
    expect((await withDb(readSyncState))?.cursor).toBe('c3')

    const again = serve([page({ cursor: 'c4', keychains: [keychain('kc-b')] })])
    expect(await syncMirror(context)).toBe('synced')
    expect(again).toEqual(['c3'])
    expect(await counts()).toEqual({ keychains: 2, tags: 1, transfers: 0 })
  })

  it('writes nothing when the server answers for another organization (selected meanwhile)', async () => {
    serve([
      page({ reset: true, phase: 'snapshot', organizationId: OTHER_ORG, keychains: [keychain('kc-a')] }),
    ])
    expect(await syncMirror(context)).toBe('stopped')
    expect(await counts()).toEqual({ keychains: 0, tags: 0, transfers: 0 })
    expect(await withDb(readSyncState)).toBeNull()
  })

  it('starts over without a cursor when the stored one is another organization’s', async () => {
    serve([page({ reset: true, phase: 'snapshot', more: true, cursor: 'a1' }), page({ cursor: 'a2' })])
    await syncMirror(context)
    const asked = serve([
      page({ reset: true, phase: 'snapshot', organizationId: OTHER_ORG, more: true }),
      page({ organizationId: OTHER_ORG }),
    ])
    await syncMirror({ ...context, organizationId: OTHER_ORG })
    expect(asked[0]).toBeNull()
    expect((await withDb(readSyncState))?.organizationId).toBe(OTHER_ORG)
  })

  it('leaves the stored cursor as it was when the network fails half-way', async () => {
    serve([page({ reset: true, phase: 'snapshot', more: true, cursor: 'c1', keychains: [keychain('kc-a')] })])
    await expect(syncMirror(context)).rejects.toThrow()
    expect((await withDb(readSyncState))?.cursor).toBe('c1')
    expect(useSyncProgress).toBeTypeOf('function')
  })
})

describe('refreshAlongside', () => {
  const profile = (selectedOrganizationId: string) => ({
    id: ADMIN,
    email: 'admin@example.com',
    firstName: 'Ada',
    lastName: 'Admin',
    phoneNumber: '',
    locale: 'fr',
    isOperator: false,
    selectedOrganizationId,
    permissions: ['read__tag', 'read__keychain', 'read__transfer'],
  })

  function serve(selectedAtTheEnd: string) {
    const answers: Record<string, unknown> = {
      '/api/organizations': { data: [] },
      '/api/stats/dashboard': { organization: null, requests: { open: 2 } },
      '/api/transfers/requests': {
        data: [
          transfer('tr-elsewhere', {
            organizationId: OTHER_ORG,
            recipient: { id: ADMIN, email: 'a@example.com', firstName: '', lastName: '' },
          }),
        ],
        nextCursor: null,
      },
      '/api/profile': profile(selectedAtTheEnd),
    }
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        const path = new URL(url, 'http://localhost').pathname
        return path in answers ? Response.json(answers[path]) : new Response('{}', { status: 404 })
      }),
    )
  }

  it('writes nothing when another organization was selected while it fetched', async () => {
    serve(OTHER_ORG)
    expect(await refreshAlongside({ userId: ADMIN, organizationId: ORG, permissions: [] })).toBe(false)
    expect(await counts()).toEqual({ keychains: 0, tags: 0, transfers: 0 })
  })

  it('keeps the requests addressed to the user elsewhere, and forgets those no longer listed', async () => {
    await mirrorTransfers(
      [
        transfer('tr-ended', {
          organizationId: OTHER_ORG,
          recipient: { id: ADMIN, email: 'a@example.com', firstName: '', lastName: '' },
        }),
      ],
      ADMIN,
    )
    serve(ORG)
    expect(await refreshAlongside({ userId: ADMIN, organizationId: ORG, permissions: [] })).toBe(true)
    expect(await mirroredTransfer('tr-elsewhere')).toBeDefined()
    expect(await mirroredTransfer('tr-ended')).toBeUndefined()
  })
})
