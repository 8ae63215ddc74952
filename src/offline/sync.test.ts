import 'fake-indexeddb/auto'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { SYNC_PAGE_MAX, type SyncPage } from '../../contract/sync.ts'
import type { Transfer } from '../../contract/transfers.ts'
import {
  ADMIN,
  adminProfile,
  CAVE_TAG,
  CONTACT,
  keychain,
  NOW,
  ORG,
  OTHER_ORG,
  tag,
  transfer,
} from '../../tests/offline-rows.ts'
import { applyExpecting, page, queuePickup, startEachWithAnEmptyMirror } from '../../tests/sync-pages.ts'
import { applySyncPage, readSyncState, type SyncState } from './apply.ts'
import { withDb } from './db.ts'
import {
  claimMirror,
  mirroredDashboard,
  mirroredKeychainSummaries,
  mirroredOrganizations,
  mirroredTransfer,
  mirrorTransfers,
} from './mirror.ts'
import { refreshAlongside } from './refresh.ts'
import { resolveScanOffline } from './scan-offline.ts'
import { syncMirror } from './sync.ts'
import { reportSyncProgress, useSyncProgress } from './sync-progress.ts'
import { allTags } from './tag-store.ts'

vi.mock('./sync-progress.ts', async (original) => {
  const real = await original<typeof import('./sync-progress.ts')>()
  return { ...real, reportSyncProgress: vi.fn(real.reportSyncProgress) }
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

startEachWithAnEmptyMirror()

afterEach(() => {
  vi.unstubAllGlobals()
  vi.mocked(reportSyncProgress).mockClear()
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
    const written = await applyExpecting(page({ keychains: [keychain('kc-b')] }), stale)
    expect(written).toBeNull()
    expect(await counts()).toMatchObject({ keychains: 1 })
  })

  it('keeps the device’s picture of a transfer whose pickup waits in the outbox, or was sent since the page was asked for', async () => {
    await claimMirror(CONTACT)
    await apply(snapshotOf({ transfers: [transfer('tr-1')] }), CONTACT, false)
    const provisional = transfer('tr-1', { status: 'TRANSFERRED', next: null, refusal: 'own_return' })
    await mirrorTransfers([provisional], CONTACT)
    const item = await queuePickup()
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

  it('shows a full sync’s progress page after page, never a page of changes’, and none once it ended', async () => {
    serve([
      page({ reset: true, phase: 'snapshot', more: true, progress: { done: 1, total: 3 }, cursor: 'c1' }),
      page({ phase: 'snapshot', more: true, progress: { done: 3, total: 3 }, cursor: 'c2' }),
      page({ phase: 'changes', more: true, progress: { done: 9, total: 9 }, cursor: 'c3' }),
      page({ cursor: 'c4' }),
    ])
    expect(await syncMirror(context)).toBe('synced')
    expect(vi.mocked(reportSyncProgress).mock.calls).toEqual([
      [{ done: 1, total: 3 }],
      [{ done: 3, total: 3 }],
      [null],
      [null],
      [null],
    ])
  })

  it('shows no progress any more once a full sync failed half-way', async () => {
    serve([
      page({ reset: true, phase: 'snapshot', more: true, progress: { done: 1, total: 3 }, cursor: 'c1' }),
    ])
    await expect(syncMirror(context)).rejects.toThrow()
    expect(vi.mocked(reportSyncProgress).mock.lastCall).toEqual([null])
  })

  it('asks pages of the size given, of the largest size the feed allows by default', async () => {
    serve([page(), page()])
    await syncMirror(context)
    await syncMirror(context, { pageSize: 50 })
    const limits = vi
      .mocked(fetch)
      .mock.calls.map(([url]) => new URL(String(url), 'http://localhost').searchParams.get('limit'))
    expect(limits).toEqual([String(SYNC_PAGE_MAX), '50'])
  })

  it('asks from the start for another account than the one it synced for, and writes nothing for an account the mirror is not for', async () => {
    serve([page({ reset: true, phase: 'snapshot', more: true, cursor: 'c1' }), page({ cursor: 'c2' })])
    await syncMirror(context)
    const asked = serve([page({ reset: true, phase: 'snapshot', keychains: [keychain('kc-a')] })])
    expect(await syncMirror({ ...context, userId: CONTACT })).toBe('stopped')
    expect(asked).toEqual([null])
    expect((await withDb(readSyncState))?.cursor).toBe('c2')
    expect(await counts()).toEqual({ keychains: 0, tags: 0, transfers: 0 })
  })

  it('takes tags from the feed for a role that lists them, from the keychains lent to it for one that does not', async () => {
    serve([page({ reset: true, phase: 'snapshot', transfers: [transfer('tr-1')] })])
    await syncMirror(context)
    expect(await counts()).toMatchObject({ tags: 0, transfers: 1 })
    serve([page({ reset: true, phase: 'snapshot', transfers: [transfer('tr-1')] })])
    await syncMirror({ ...context, permissions: ['read__keychain'] })
    expect((await withDb(allTags)).map((each) => each.code)).toEqual([CAVE_TAG.code])
  })

  describe('with other tabs of the app', () => {
    function locks(held: boolean) {
      const request = vi.fn(
        async (_name: string, _options: LockOptions, work: (lock: Lock | null) => Promise<unknown>) =>
          work(held ? null : ({ name: 'trousseau-sync', mode: 'exclusive' } as Lock)),
      )
      vi.stubGlobal('navigator', { ...navigator, locks: { request } })
      return request
    }

    it('syncs under the app’s sync lock, taken only when free', async () => {
      const request = locks(false)
      serve([page({ cursor: 'c1' })])
      expect(await syncMirror(context)).toBe('synced')
      expect(request).toHaveBeenCalledWith('trousseau-sync', { ifAvailable: true }, expect.any(Function))
      expect((await withDb(readSyncState))?.cursor).toBe('c1')
    })

    it('answers busy, asking nothing, while another tab syncs', async () => {
      locks(true)
      const asked = serve([page({ cursor: 'c1' })])
      expect(await syncMirror(context)).toBe('busy')
      expect(asked).toEqual([])
      expect(await withDb(readSyncState)).toBeNull()
    })

    it('asks for the lock named "trousseau-sync", the one name tabs of every build share', async () => {
      const request = locks(true)
      // The name is set when the module loads: a fresh copy of it is loaded here.
      vi.resetModules()
      const fresh = await import('./sync.ts')
      expect(await fresh.syncMirror(context)).toBe('busy')
      expect(request).toHaveBeenCalledWith('trousseau-sync', { ifAvailable: true }, expect.any(Function))
    })

    it('syncs without a lock where there is no navigator', async () => {
      serve([page({ cursor: 'c1' })])
      vi.stubGlobal('navigator', undefined)
      expect(await syncMirror(context)).toBe('synced')
      expect((await withDb(readSyncState))?.cursor).toBe('c1')
    })
  })
})

describe('refreshAlongside', () => {
  const profile = (selectedOrganizationId: string) =>
    adminProfile({ selectedOrganizationId, permissions: ['read__tag', 'read__keychain', 'read__transfer'] })

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

  /** The server for a refresh: `requests` are the pages of GET /transfers/requests, in order. */
  function serveAll(answers: { profile?: object; dashboard?: unknown; requests: Transfer[][] }) {
    const asked: string[] = []
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        const address = new URL(url, 'http://localhost')
        asked.push(`${address.pathname}${address.search}`)
        switch (address.pathname) {
          case '/api/organizations':
            return Response.json({ data: [] })
          case '/api/stats/dashboard':
            return Response.json(answers.dashboard ?? { organization: null, requests: { open: 2 } })
          case '/api/profile':
            return Response.json(answers.profile ?? profile(ORG))
          case '/api/transfers/requests': {
            const cursor = address.searchParams.get('cursor')
            const index = cursor ? Number(cursor.replace('after page ', '')) : 0
            const more = index + 1 < answers.requests.length
            return Response.json({
              data: answers.requests[index] ?? [],
              nextCursor: more ? `after page ${index + 1}` : null,
            })
          }
          default:
            return new Response('{}', { status: 404 })
        }
      }),
    )
    return asked
  }

  const mine = (id: string, organizationId = OTHER_ORG) =>
    transfer(id, {
      organizationId,
      recipient: { id: ADMIN, email: 'a@example.com', firstName: '', lastName: '' },
    })
  const context = { userId: ADMIN, organizationId: ORG, permissions: [] }

  it('reads the user’s requests page by page, each from the cursor the last one gave, encoded', async () => {
    const asked = serveAll({ requests: [[mine('tr-1')], [mine('tr-2')], [mine('tr-3')]] })
    expect(await refreshAlongside(context)).toBe(true)
    expect(asked.filter((each) => each.startsWith('/api/transfers/requests'))).toEqual([
      '/api/transfers/requests?limit=100',
      '/api/transfers/requests?limit=100&cursor=after+page+1',
      '/api/transfers/requests?limit=100&cursor=after+page+2',
    ])
    for (const id of ['tr-1', 'tr-2', 'tr-3']) expect((await mirroredTransfer(id))?.id).toBe(id)
  })

  it('reads at most 20 pages of requests, and then forgets none it did not see', async () => {
    await mirrorTransfers([mine('tr-old')], ADMIN)
    const pages = Array.from({ length: 25 }, (_, index) => [mine(`tr-${index}`)])
    const asked = serveAll({ requests: pages })
    expect(await refreshAlongside(context)).toBe(true)
    expect(asked.filter((each) => each.startsWith('/api/transfers/requests'))).toHaveLength(20)
    expect(await mirroredTransfer('tr-19')).toBeDefined()
    expect(await mirroredTransfer('tr-20')).toBeUndefined()
    expect(await mirroredTransfer('tr-old')).toBeDefined()
  })

  it('mirrors the organizations, the dashboard and the profile as the server gave them', async () => {
    const dashboard = { organization: null, requests: { open: 7 } }
    serveAll({ dashboard, requests: [[]] })
    expect(await refreshAlongside(context)).toBe(true)
    expect(await mirroredOrganizations()).toEqual([])
    expect(await mirroredDashboard(ORG)).toEqual(dashboard)
    expect(await withDb((db) => db.profile.get(ADMIN))).toMatchObject({ id: ADMIN, firstName: 'Ada' })
  })

  it('writes nothing when the dashboard’s answer is not what the contract says', async () => {
    serveAll({ dashboard: { requests: 'many' }, requests: [[]] })
    await expect(refreshAlongside(context)).rejects.toThrow()
    expect(await mirroredOrganizations()).toBeUndefined()
    expect(await mirroredDashboard(ORG)).toBeUndefined()
  })

  it('writes nothing when another account signed in while it fetched', async () => {
    serveAll({ profile: { ...profile(ORG), id: CONTACT }, requests: [[mine('tr-1')]] })
    expect(await refreshAlongside(context)).toBe(false)
    expect(await mirroredOrganizations()).toBeUndefined()
    expect(await mirroredTransfer('tr-1')).toBeUndefined()
  })

  it('writes nothing when the device’s mirror belongs to another account', async () => {
    await claimMirror(CONTACT)
    serveAll({ requests: [[mine('tr-1')]] })
    expect(await refreshAlongside(context)).toBe(false)
    expect(await mirroredOrganizations()).toBeUndefined()
    expect(await mirroredTransfer('tr-1')).toBeUndefined()
  })

  it('forgets only the user’s own requests in other organizations: the change feed keeps the rest', async () => {
    const someoneElse = transfer('tr-someone-elses', { organizationId: OTHER_ORG })
    await mirrorTransfers([someoneElse], ADMIN)
    await mirrorTransfers([mine('tr-mine-here', ORG), mine('tr-mine-elsewhere')], ADMIN)
    serveAll({ requests: [[]] })
    expect(await refreshAlongside(context)).toBe(true)
    expect(await mirroredTransfer('tr-someone-elses')).toBeDefined()
    expect(await mirroredTransfer('tr-mine-here')).toBeDefined()
    expect(await mirroredTransfer('tr-mine-elsewhere')).toBeUndefined()
  })
})
