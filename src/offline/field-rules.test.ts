import 'fake-indexeddb/auto'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Transfer } from '../../contract/transfers.ts'
import {
  ADMIN,
  CAVE_TAG,
  CONTACT,
  NOW,
  ORG,
  OTHER_ORG,
  summary,
  tag,
  transfer,
} from '../../tests/offline-rows.ts'
import { ApiError } from '../lib/api.ts'
import { offlineDb, resetOfflineDbForTests, withDb } from './db.ts'
import { submitPickup } from './field.ts'
import {
  asMirroredTag,
  claimMirror,
  mirroredTransfer,
  mirrorKeychainSummaries,
  mirrorOwner,
  mirrorProfile,
  mirrorTransfers,
} from './mirror.ts'
import { mirrored } from './mirrored.ts'
import { drain, enqueue, inFlight, type SendOutcome, settle } from './outbox.ts'
import { resolveScanOffline } from './scan-offline.ts'
import { putTags } from './tag-store.ts'
import { asSingleDrainer } from './worker.ts'

/** The field-mode rules in isolation: fake IndexedDB, a fake clock (Date only), a fake fetch. */

beforeEach(async () => {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(NOW)
  await resetOfflineDbForTests()
})

afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
  localStorage.clear()
  inFlight.clear()
})

const LEASE_KEY = 'trousseau-outbox-lease'

describe('the worker lease (no Web Locks)', () => {
  beforeEach(() => {
    vi.stubGlobal('navigator', { ...navigator, locks: undefined })
  })

  it('does not let a stale lease of a crashed tab block every tab', async () => {
    localStorage.setItem(LEASE_KEY, JSON.stringify({ tab: 'crashed', until: Date.now() - 1 }))
    expect(await asSingleDrainer(async () => 'drained', 'b')).toBe('drained')
    // Ended: the lease is given up for the next tab.
    expect(localStorage.getItem(LEASE_KEY)).toBeNull()
  })

  it('treats a lease that ends now as ended, and a live one of another tab as taken', async () => {
    localStorage.setItem(LEASE_KEY, JSON.stringify({ tab: 'other', until: Date.now() }))
    expect(await asSingleDrainer(async () => 'drained', 'b')).toBe('drained')
    localStorage.setItem(LEASE_KEY, JSON.stringify({ tab: 'other', until: Date.now() + 1 }))
    const work = vi.fn(async () => 'drained')
    expect(await asSingleDrainer(work, 'b')).toBeNull()
    expect(work).not.toHaveBeenCalled()
  })

  it('lets the tab that holds the lease drain again, and writes a 30 s lease while it works', async () => {
    localStorage.setItem(LEASE_KEY, JSON.stringify({ tab: 'b', until: Date.now() + 10_000 }))
    const seen = await asSingleDrainer(async () => JSON.parse(localStorage.getItem(LEASE_KEY)!), 'b')
    expect(seen).toEqual({ tab: 'b', until: Date.now() + 30_000 })
  })

  it('gives the lease up even when the drain fails', async () => {
    await expect(
      asSingleDrainer(async () => {
        throw new Error('boom')
      }, 'b'),
    ).rejects.toThrow('boom')
    expect(localStorage.getItem(LEASE_KEY)).toBeNull()
  })
})

describe('the worker with Web Locks', () => {
  it('asks for the outbox lock only if it is free, and does nothing without it', async () => {
    const request = vi.fn(
      async (_name: string, _options: unknown, callback: (lock: object | null) => unknown) => callback(null),
    )
    vi.stubGlobal('navigator', { ...navigator, locks: { request } })
    const work = vi.fn(async () => 'drained')
    expect(await asSingleDrainer(work, 'a')).toBeNull()
    expect(work).not.toHaveBeenCalled()
    expect(request).toHaveBeenCalledWith('trousseau-outbox', { ifAvailable: true }, expect.any(Function))
    // Web Locks, not the lease.
    expect(localStorage.getItem(LEASE_KEY)).toBeNull()
  })
})

const unknownScan = (id: string): SendOutcome => ({
  kind: 'sent',
  result: { status: 'unknown', scanId: id, value: 'x' },
})

describe('the outbox settle rules', () => {
  const made = () => enqueue({ kind: 'scan', userId: CONTACT, organizationId: ORG, value: 'x', label: 'x' })

  it('never overwrites a sent item as failed (a late answer of another attempt)', async () => {
    const item = await made()
    expect(await settle(item, unknownScan(item.id))).toBe(true)
    const refused = { kind: 'refused', status: 409, code: 'conflict', message: 'No.' } as const
    expect(await settle(item, refused)).toBe(true)
    expect(
      await settle(item, { kind: 'serverError', status: 500, code: 'internal_error', message: 'x' }),
    ).toBe(true)
    expect(await settle(item, { kind: 'unreachable' })).toBe(true)
    expect(await offlineDb().outbox.get(item.id)).toMatchObject({
      status: 'sent',
      attempts: 1,
      error: null,
      sentAt: NOW.toISOString(),
      result: { status: 'unknown', scanId: item.id },
    })
  })

  it('goes on after an item discarded meanwhile', async () => {
    const item = await made()
    await offlineDb().outbox.delete(item.id)
    expect(await settle(item, { kind: 'unreachable' })).toBe(true)
    expect(await offlineDb().outbox.count()).toBe(0)
  })

  it('keeps a refused item as failed with the reason, and counts the attempt', async () => {
    const item = await made()
    expect(await settle(item, { kind: 'refused', status: 403, code: 'forbidden', message: 'No.' })).toBe(true)
    expect(await offlineDb().outbox.get(item.id)).toMatchObject({
      status: 'failed',
      attempts: 1,
      error: { status: 403, code: 'forbidden', message: 'No.' },
    })
  })

  it('backs off after a server error or no answer, from the attempt’s time', async () => {
    const item = await made()
    const at = new Date(NOW.getTime() + 1000)
    expect(await settle(item, { kind: 'serverError', status: 503, code: 'x', message: 'y' }, at)).toBe(false)
    expect(await offlineDb().outbox.get(item.id)).toMatchObject({
      status: 'pending',
      attempts: 1,
      serverErrors: 1,
      nextAttemptAt: at.getTime() + 2000,
      error: null,
    })
    expect(await settle(item, { kind: 'unreachable' }, at)).toBe(false)
    expect(await offlineDb().outbox.get(item.id)).toMatchObject({
      status: 'pending',
      attempts: 2,
      serverErrors: 1,
      nextAttemptAt: at.getTime() + 4000,
    })
  })

  it('drains past a sent item without sending it again, and reports what it did', async () => {
    const first = await made()
    const second = await made()
    await settle(first, unknownScan(first.id))
    const transport = vi.fn(async (item: { id: string }) => unknownScan(item.id))
    expect(await drain(transport, { userId: CONTACT })).toEqual({
      sent: 1,
      refused: 0,
      serverFailed: 0,
      stoppedUnreachable: false,
      nextAttemptAt: null,
    })
    expect(transport.mock.calls.map(([item]) => item.id)).toEqual([second.id])
  })

  it('treats a transport that throws as no answer', async () => {
    const item = await made()
    const report = await drain(
      async () => {
        throw new Error('offline')
      },
      { userId: CONTACT, now: () => NOW },
    )
    expect(report).toEqual({
      sent: 0,
      refused: 0,
      serverFailed: 0,
      stoppedUnreachable: true,
      nextAttemptAt: NOW.getTime() + 2000,
    })
    expect((await offlineDb().outbox.get(item.id))?.attempts).toBe(1)
  })
})

describe('mirror ownership', () => {
  it('clears another account’s mirror on sign-in, and keeps the outbox', async () => {
    await claimMirror(ADMIN)
    await mirrorTransfers([transfer('tr-1')], ADMIN)
    await mirrorKeychainSummaries(ORG, [summary('kc-cave')])
    await mirrorProfile({ id: ADMIN } as never)
    const kept = await enqueue({ kind: 'scan', userId: ADMIN, organizationId: ORG, value: 'x', label: 'x' })
    await claimMirror(CONTACT)
    expect(await mirrorOwner(offlineDb())).toBe(CONTACT)
    const db = offlineDb()
    expect([
      await db.transfers.count(),
      await db.keychains.count(),
      await db.tagBuckets.count(),
      await db.profile.count(),
      await db.meta.count(),
    ]).toEqual([0, 0, 0, 0, 1])
    expect((await db.outbox.toArray()).map((item) => item.id)).toEqual([kept.id])
  })

  it('keeps the mirror of the account that owns it', async () => {
    await claimMirror(CONTACT)
    await mirrorTransfers([transfer('tr-1')], CONTACT)
    await claimMirror(CONTACT)
    expect(await mirroredTransfer('tr-1')).toBeDefined()
  })

  it('belongs to nobody after signing out, with nothing left', async () => {
    await claimMirror(CONTACT)
    await mirrorTransfers([transfer('tr-1')], CONTACT)
    await claimMirror(null)
    expect(await mirrorOwner(offlineDb())).toBeNull()
    expect(await offlineDb().meta.count()).toBe(0)
    expect(await mirroredTransfer('tr-1')).toBeUndefined()
  })
})

describe('offline scan resolution across organizations and roles', () => {
  const input = (overrides: Partial<Parameters<typeof resolveScanOffline>[0]> = {}) => ({
    organizationId: ORG,
    userId: ADMIN,
    value: 'AGC-00042',
    scanId: 'scan-1',
    permissions: ['read__tag', 'read__keychain', 'update__keychain', 'create__transfer', 'pickup__transfer'],
    now: NOW,
    ...overrides,
  })
  const OTHER_TAG = tag('AGC-00042', 'zzzzzzzzzzzzzzzzzzzz', 'kc-other')

  beforeEach(async () => {
    await claimMirror(ADMIN)
  })

  it('does not resolve a known tag of another organization by its code: the code is read in the selected one', async () => {
    await withDb((db) => putTags(db, [asMirroredTag(OTHER_ORG, OTHER_TAG)]))
    expect(await resolveScanOffline(input())).toEqual({
      status: 'unknown',
      scanId: 'scan-1',
      value: 'AGC-00042',
    })
  })

  it('answers foreign for a known tag of another organization scanned by its QR', async () => {
    await withDb((db) => putTags(db, [asMirroredTag(OTHER_ORG, OTHER_TAG)]))
    expect(await resolveScanOffline(input({ value: OTHER_TAG.url }))).toEqual({
      status: 'foreign',
      scanId: 'scan-1',
      publicId: 'zzzzzzzzzzzzzzzzzzzz',
    })
  })

  it('answers foreign to a role that does not read tags, in its own organization', async () => {
    await withDb((db) => putTags(db, [asMirroredTag(ORG, CAVE_TAG)]))
    expect(await resolveScanOffline(input({ permissions: ['create__scan'] }))).toMatchObject({
      status: 'foreign',
    })
  })

  it('resolves for a role that reads tags, with the actions it has among the scan’s', async () => {
    await withDb((db) => putTags(db, [asMirroredTag(ORG, CAVE_TAG)]))
    expect(await resolveScanOffline(input())).toEqual({
      status: 'resolved',
      scanId: 'scan-1',
      tag: CAVE_TAG,
      key: null,
      keychain: { id: 'kc-cave', name: 'Keychain kc-cave', custodian: null },
      actions: ['read__keychain', 'update__keychain', 'create__transfer', 'pickup__transfer'],
      transfer: null,
    })
  })

  it('offers only the pickup to a recipient scanning from another organization', async () => {
    await claimMirror(CONTACT)
    await mirrorTransfers([transfer('tr-1')], CONTACT)
    const result = await resolveScanOffline(
      input({
        userId: CONTACT,
        organizationId: OTHER_ORG,
        value: CAVE_TAG.url,
        permissions: ['read__tag', 'update__keychain'],
      }),
    )
    expect(result).toMatchObject({
      status: 'resolved',
      actions: ['pickup__transfer'],
      transfer: { id: 'tr-1', next: 'PICKUP' },
    })
  })

  it.each([
    // The mirrored transfer's window: 2026-11-21T23:00Z to 2026-11-23T23:00Z.
    ['before its window', '2026-11-21T22:59:59.999Z', null, 'before_window'],
    ['at the start of its window', '2026-11-21T23:00:00.000Z', 'PICKUP', null],
    ['at the end of its window', '2026-11-23T23:00:00.000Z', null, 'window_closed'],
  ])('offers a scheduled pickup %s only inside it', async (_when, at, next, refusal) => {
    await claimMirror(CONTACT)
    await mirrorTransfers([transfer('tr-1', { next: 'PICKUP', refusal: null })], CONTACT)
    const result = await resolveScanOffline(input({ userId: CONTACT, now: new Date(at), permissions: [] }))
    if (at >= '2026-11-23T23:00:00.000Z') expect(result.status).toBe('foreign')
    else expect(result).toMatchObject({ status: 'resolved', transfer: { next, refusal } })
  })

  it('shows the transfer that is out before a scheduled one', async () => {
    await claimMirror(CONTACT)
    const out = transfer('tr-out', {
      status: 'TRANSFERRED',
      next: 'RETURN',
      recipient: { ...transfer('x').recipient, id: ADMIN },
    })
    await mirrorTransfers([transfer('tr-1'), out], CONTACT)
    const result = await resolveScanOffline(input({ userId: CONTACT, permissions: [] }))
    expect(result).toMatchObject({ status: 'resolved', transfer: { id: 'tr-out' } })
  })
})

describe('the mirror fallback', () => {
  const load = vi.fn(async () => 'from the mirror')

  it('answers from the mirror on a network error only', async () => {
    const save = vi.fn(async () => {})
    expect(
      await mirrored(
        () => Promise.reject(new ApiError(0, 'network_error', 'The server could not be reached.')),
        save,
        load,
      ),
    ).toBe('from the mirror')
    expect(save).not.toHaveBeenCalled()
  })

  it('does not answer a server 403 (or any answer) from the mirror', async () => {
    const forbidden = new ApiError(403, 'forbidden', 'No.')
    await expect(
      mirrored(
        () => Promise.reject(forbidden),
        async () => {},
        load,
      ),
    ).rejects.toBe(forbidden)
    const broken = new ApiError(500, 'internal_error', 'Broken.')
    await expect(
      mirrored(
        () => Promise.reject(broken),
        async () => {},
        load,
      ),
    ).rejects.toBe(broken)
    const bug = new TypeError('bug')
    await expect(
      mirrored(
        () => Promise.reject(bug),
        async () => {},
        load,
      ),
    ).rejects.toBe(bug)
  })

  it('throws the network error when the mirror has nothing, or cannot be read', async () => {
    const offline = new ApiError(0, 'network_error', 'x')
    await expect(
      mirrored(
        () => Promise.reject(offline),
        async () => {},
        async () => undefined,
      ),
    ).rejects.toBe(offline)
    await expect(
      mirrored(
        () => Promise.reject(offline),
        async () => {},
        () => Promise.reject(new Error('closed')),
      ),
    ).rejects.toBe(offline)
  })

  it('answers at once, writes the server’s answer to the mirror once idle, and answers even when the write fails', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] })
    const save = vi.fn(async (_data: string) => {})
    expect(await mirrored(async () => 'fresh', save, load)).toBe('fresh')
    expect(save).not.toHaveBeenCalled()
    await vi.runAllTimersAsync()
    expect(save).toHaveBeenCalledWith('fresh')
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    expect(
      await mirrored(
        async () => 'fresh',
        () => Promise.reject(new Error('full')),
        load,
      ),
    ).toBe('fresh')
    await vi.runAllTimersAsync()
    expect(warn).toHaveBeenCalledWith('Mirror write failed', expect.any(Error))
    warn.mockRestore()
    vi.useRealTimers()
  })
})

describe('a pickup in the field', () => {
  const context = { userId: CONTACT, organizationId: OTHER_ORG, permissions: ['pickup__transfer'] }
  const scheduled = transfer('tr-1')

  beforeEach(async () => {
    await claimMirror(CONTACT)
    await mirrorTransfers([scheduled], CONTACT)
  })

  it('online, shows and mirrors the server’s answer, kept as sent under the transfer’s organization', async () => {
    const done = transfer('tr-1', { status: 'TRANSFERRED', next: null, refusal: 'own_return' })
    const fetch = vi.fn(async (_url: string, _init: RequestInit) => Response.json(done))
    vi.stubGlobal('fetch', fetch)
    expect(await submitPickup(context, scheduled)).toEqual({ transfer: done, queued: false })
    expect(fetch.mock.calls[0]![0]).toBe('/api/transfers/tr-1/pickups')
    expect((await mirroredTransfer('tr-1'))?.status).toBe('TRANSFERRED')
    expect(await offlineDb().outbox.toArray()).toMatchObject([
      { kind: 'pickup', status: 'sent', organizationId: ORG, value: 'tr-1', label: 'Keychain kc-cave' },
    ])
    expect(inFlight.size).toBe(0)
  })

  it('refused online, throws the server’s reason and keeps nothing', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        Response.json({ error: { code: 'pickup_refused', message: 'Too early.' } }, { status: 409 }),
      ),
    )
    await expect(submitPickup(context, scheduled)).rejects.toMatchObject({
      status: 409,
      code: 'pickup_refused',
      message: 'Too early.',
    })
    expect(await offlineDb().outbox.count()).toBe(0)
    expect((await mirroredTransfer('tr-1'))?.status).toBe('SCHEDULED')
  })

  it.each<[string, Partial<Transfer>, string, Partial<Transfer>]>([
    ['a recipient’s pickup', {}, CONTACT, { status: 'TRANSFERRED', next: null, refusal: 'own_return' }],
    ['a pickup for someone else', {}, ADMIN, { status: 'TRANSFERRED', next: null, refusal: 'not_member' }],
    [
      'a return',
      { status: 'TRANSFERRED', next: 'RETURN' },
      ADMIN,
      { status: 'RETURNED', next: null, refusal: 'already_returned' },
    ],
    [
      'an overdue return',
      { status: 'RETURNING', next: 'RETURN' },
      ADMIN,
      { status: 'RETURNED', next: null, refusal: 'already_returned' },
    ],
    [
      'a pickup of an overdue transfer',
      { status: 'RETURNING', next: 'PICKUP' },
      CONTACT,
      { status: 'RETURNING', next: null, refusal: 'own_return' },
    ],
  ])('without an answer, accepts %s provisionally and mirrors it', async (_what, before, userId, after) => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    )
    const result = await submitPickup({ ...context, userId }, transfer('tr-1', before))
    expect(result.queued).toBe(true)
    expect(result.transfer).toMatchObject(after)
    expect(await mirroredTransfer('tr-1')).toMatchObject(after)
    expect(await offlineDb().outbox.toArray()).toMatchObject([{ status: 'pending', attempts: 1 }])
  })

  it('without any network, sends nothing and waits for the worker', async () => {
    const fetch = vi.fn()
    vi.stubGlobal('fetch', fetch)
    vi.stubGlobal('navigator', { ...navigator, onLine: false })
    const result = await submitPickup(context, scheduled)
    expect(fetch).not.toHaveBeenCalled()
    expect(result).toMatchObject({ queued: true, transfer: { status: 'TRANSFERRED' } })
    expect(await offlineDb().outbox.toArray()).toMatchObject([{ status: 'pending', attempts: 0 }])
    expect(inFlight.size).toBe(0)
  })
})
