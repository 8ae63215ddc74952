import 'fake-indexeddb/auto'
import { beforeEach, describe, expect, it } from 'vitest'
import type { SyncPage } from '../../contract/sync.ts'
import {
  ADMIN,
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
import { applySyncPage, readSyncState, SYNC_STATE_KEY } from './apply.ts'
import { offlineDb, withDb } from './db.ts'
import { asMirroredTag, claimMirror, mirrorTransfers } from './mirror.ts'
import { enqueue } from './outbox.ts'
import { allTags, putTags } from './tag-store.ts'

/** One page of the change feed written into the mirror: the state it leads to, and what it keeps or sweeps. */

const applyPage = async (
  each: SyncPage,
  options: { userId?: string; readsTags?: boolean; requestedAt?: string; now?: number } = {},
) => {
  const expected = await withDb(readSyncState)
  return withDb((db) =>
    applySyncPage(db, {
      page: each,
      userId: options.userId ?? ADMIN,
      expected,
      requestedAt: options.requestedAt ?? NOW.toISOString(),
      readsTags: options.readsTags ?? true,
      ...(options.now === undefined ? {} : { now: options.now }),
    }),
  )
}

const snapshot = (rows: Partial<SyncPage> = {}) =>
  page({ reset: true, phase: 'snapshot', more: true, ...rows })

const ids = async () => ({
  keychains: (await offlineDb().keychains.toArray()).map((row) => row.id).sort(),
  transfers: (await offlineDb().transfers.toArray()).map((row) => row.id).sort(),
  tags: (await withDb(allTags)).map((row) => row.code).sort(),
})

startEachWithAnEmptyMirror()

describe('where the mirror stands in the feed', () => {
  it('is nowhere on a new device', async () => {
    expect(await withDb(readSyncState)).toBeNull()
  })

  it('records the page’s cursor and organization, the account, and when it heard from the feed', async () => {
    const state = await applyPage(snapshot({ cursor: 'c-1' }), { now: 1_234 })
    expect(state).toEqual({
      userId: ADMIN,
      organizationId: ORG,
      cursor: 'c-1',
      gen: expect.stringMatching(/^[0-9a-f]{8}$/),
      sweepPending: true,
      syncedAt: 1_234,
    })
    expect(await withDb(readSyncState)).toEqual(state)
    // Under the key earlier versions of the app kept it: an update goes on from where the device was.
    expect(SYNC_STATE_KEY).toBe('sync')
    expect((await offlineDb().meta.get('sync'))?.value).toBe(JSON.stringify(state))
  })

  it('takes the device’s clock when no time is given', async () => {
    const before = Date.now()
    const state = await applyPage(snapshot())
    expect(state!.syncedAt).toBeGreaterThanOrEqual(before)
    expect(state!.syncedAt).toBeLessThanOrEqual(Date.now())
  })

  it('keeps the full sync’s generation while the feed goes on, and starts a new one on a reset or another organization', async () => {
    const first = await applyPage(snapshot())
    const next = await applyPage(page({ phase: 'snapshot', more: true }))
    expect(next).toMatchObject({ gen: first!.gen, sweepPending: true })
    const ended = await applyPage(page())
    expect(ended).toMatchObject({ gen: first!.gen, sweepPending: false })
    const goingOn = await applyPage(page())
    expect(goingOn).toMatchObject({ gen: first!.gen, sweepPending: false })
    const reset = await applyPage(snapshot())
    expect(reset!.gen).not.toBe(first!.gen)
    expect(reset!.sweepPending).toBe(true)
    await applyPage(page())
    const elsewhere = await applyPage(page({ organizationId: OTHER_ORG }))
    expect(elsewhere!.gen).not.toBe(reset!.gen)
    expect(elsewhere).toMatchObject({ organizationId: OTHER_ORG, sweepPending: false })
  })

  it('writes nothing when the page does not follow the stored cursor', async () => {
    await applyPage(snapshot({ keychains: [keychain('kc-1')] }))
    const written = await applyExpecting(page({ keychains: [keychain('kc-2')] }), null)
    expect(written).toBeNull()
    expect((await ids()).keychains).toEqual(['kc-1'])
  })
})

describe('the rows a page writes', () => {
  it('writes a keychain’s detail alone, never older than the one a detail screen wrote', async () => {
    const state = await applyPage(snapshot({ keychains: [keychain('kc-1')] }))
    expect(await offlineDb().keychains.get('kc-1')).toEqual({
      id: 'kc-1',
      organizationId: ORG,
      summary: null,
      detail: keychain('kc-1'),
      gen: state!.gen,
    })
    const newer = keychain('kc-1', { name: 'Renamed on screen', updatedAt: '2026-11-03T00:00:00.000Z' })
    await offlineDb().keychains.update('kc-1', { detail: newer })
    await applyPage(page({ keychains: [keychain('kc-1', { updatedAt: '2026-11-02T00:00:00.000Z' })] }))
    expect((await offlineDb().keychains.get('kc-1'))?.detail).toEqual(newer)
    const same = keychain('kc-1', { name: 'From the feed', updatedAt: '2026-11-03T00:00:00.000Z' })
    await applyPage(page({ keychains: [same] }))
    expect((await offlineDb().keychains.get('kc-1'))?.detail).toEqual(same)
  })

  it('writes a keychain’s detail over a list row that had none', async () => {
    await applyPage(snapshot())
    await applyPage(page())
    await offlineDb().keychains.put({ id: 'kc-1', organizationId: ORG, summary: null, detail: null })
    await applyPage(page({ keychains: [keychain('kc-1')] }))
    expect((await offlineDb().keychains.get('kc-1'))?.detail).toEqual(keychain('kc-1'))
  })

  it('marks the transfers addressed to the user and writes the page’s tags under its organization', async () => {
    const state = await applyPage(
      snapshot({
        transfers: [
          transfer('tr-mine', { recipient: { ...transfer('x').recipient, id: ADMIN } }),
          transfer('tr-1'),
        ],
        tags: [CAVE_TAG],
      }),
    )
    expect(await offlineDb().transfers.get('tr-mine')).toMatchObject({ mine: 1, gen: state!.gen })
    expect(await offlineDb().transfers.get('tr-1')).toMatchObject({ mine: 0, gen: state!.gen })
    expect(await withDb(allTags)).toEqual([{ ...CAVE_TAG, organizationId: ORG, gen: state!.gen }])
  })

  it('gives a role that reads tags the feed’s tags only, not those its transfers list', async () => {
    await applyPage(snapshot({ transfers: [transfer('tr-1')] }))
    expect((await ids()).tags).toEqual([])
  })

  it('gives a role that cannot list tags those of the keychains lent to it, and forgets one taken off', async () => {
    await claimMirror(CONTACT)
    await applyPage(snapshot(), { userId: CONTACT, readsTags: false })
    await applyPage(page(), { userId: CONTACT, readsTags: false })
    const other = tag('AGC-00070', 'hhhhhhhhhhhhhhhhhhhh', 'kc-other')
    const second = tag('AGC-00043', 'iiiiiiiiiiiiiiiiiiii', 'kc-cave')
    const loose = tag('AGC-00071', 'nnnnnnnnnnnnnnnnnnnn', null)
    await withDb((db) => putTags(db, [asMirroredTag(ORG, other), asMirroredTag(ORG, loose)]))
    const lent = transfer('tr-1', { keychain: { id: 'kc-cave', name: 'Cave', tags: [CAVE_TAG, second] } })
    const state = await applyPage(page({ transfers: [lent] }), { userId: CONTACT, readsTags: false })
    expect(await withDb(allTags)).toEqual([
      { ...CAVE_TAG, organizationId: ORG, gen: state!.gen },
      { ...second, organizationId: ORG, gen: state!.gen },
      { ...other, organizationId: ORG },
      { ...loose, organizationId: ORG },
    ])
    const fewer = transfer('tr-1', { keychain: { id: 'kc-cave', name: 'Cave', tags: [second] } })
    await applyPage(page({ transfers: [fewer] }), { userId: CONTACT, readsTags: false })
    expect((await ids()).tags).toEqual(['AGC-00043', 'AGC-00070', 'AGC-00071'])
  })
})

describe('the transfers the device holds to its own picture', () => {
  const provisional = () => transfer('tr-1', { status: 'TRANSFERRED', next: null, refusal: 'own_return' })

  beforeEach(async () => {
    await claimMirror(CONTACT)
    await mirrorTransfers([provisional()], CONTACT)
  })

  it('holds one whose pickup was sent just when the page was asked for', async () => {
    const item = await queuePickup()
    await offlineDb().outbox.update(item.id, { status: 'sent', sentAt: NOW.toISOString() })
    await applyPage(page({ transfers: [transfer('tr-1')] }), { userId: CONTACT, readsTags: false })
    expect((await offlineDb().transfers.get('tr-1'))?.status).toBe('TRANSFERRED')
  })

  it('does not hold one for a failed pickup, or for a scan of the same value', async () => {
    const item = await queuePickup()
    await offlineDb().outbox.update(item.id, { status: 'failed' })
    await enqueue({ kind: 'scan', userId: CONTACT, organizationId: ORG, value: 'tr-1', label: 'x' })
    await applyPage(page({ transfers: [transfer('tr-1')] }), { userId: CONTACT, readsTags: false })
    expect((await offlineDb().transfers.get('tr-1'))?.status).toBe('SCHEDULED')
  })
})

describe('the sweep at the end of a full sync', () => {
  it('keeps what the full sync wrote, and what it wrote before its snapshot ended', async () => {
    await applyPage(
      snapshot({ keychains: [keychain('kc-old')], transfers: [transfer('tr-old')], tags: [CAVE_TAG] }),
    )
    await applyPage(page())
    await applyPage(snapshot({ keychains: [keychain('kc-new')] }))
    await applyPage(page({ phase: 'snapshot', transfers: [transfer('tr-new')] }))
    expect(await ids()).toEqual({
      keychains: ['kc-new', 'kc-old'],
      transfers: ['tr-new', 'tr-old'],
      tags: ['AGC-00042'],
    })
    await applyPage(page())
    expect(await ids()).toEqual({ keychains: ['kc-new'], transfers: ['tr-new'], tags: [] })
  })

  it('keeps the requests addressed to the user elsewhere and their keychains’ tags, not the others elsewhere', async () => {
    await claimMirror(CONTACT)
    const keptTag = tag('OTH-00001', 'jjjjjjjjjjjjjjjjjjjj', 'kc-kept')
    const goneTag = tag('OTH-00002', 'kkkkkkkkkkkkkkkkkkkk', 'kc-gone')
    await mirrorTransfers(
      [
        transfer('tr-mine', {
          organizationId: OTHER_ORG,
          keychain: { id: 'kc-kept', name: 'x', tags: [keptTag] },
        }),
        transfer('tr-theirs', {
          organizationId: OTHER_ORG,
          recipient: { ...transfer('x').recipient, id: ADMIN },
          keychain: { id: 'kc-gone', name: 'y', tags: [goneTag] },
        }),
      ],
      CONTACT,
    )
    await withDb((db) =>
      putTags(db, [asMirroredTag(ORG, tag('AGC-00099', 'mmmmmmmmmmmmmmmmmmmm', 'kc-kept'))]),
    )
    await applyPage(snapshot(), { userId: CONTACT, readsTags: false })
    await applyPage(page(), { userId: CONTACT, readsTags: false })
    expect(await ids()).toEqual({ keychains: [], transfers: ['tr-mine'], tags: ['OTH-00001'] })
  })

  it('sweeps the tags on no key of another organization', async () => {
    await withDb((db) =>
      putTags(db, [asMirroredTag(OTHER_ORG, tag('OTH-00003', 'pppppppppppppppppppp', null))]),
    )
    await applyPage(snapshot())
    await applyPage(page())
    expect((await ids()).tags).toEqual([])
  })

  it('sweeps the user’s own transfers of the synced organization that the feed no longer sends', async () => {
    await claimMirror(CONTACT)
    await mirrorTransfers([transfer('tr-1')], CONTACT)
    await applyPage(snapshot(), { userId: CONTACT, readsTags: false })
    await applyPage(page(), { userId: CONTACT, readsTags: false })
    expect(await ids()).toEqual({ keychains: [], transfers: [], tags: [] })
  })
})
