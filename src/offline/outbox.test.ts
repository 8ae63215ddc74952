import 'fake-indexeddb/auto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { OutboxItem } from './db.ts'
import { offlineDb, resetOfflineDbForTests, withDb } from './db.ts'
import {
  BACKOFF_CAP_MS,
  backoffDelay,
  discardItem,
  drain,
  enqueue,
  hasPending,
  inFlight,
  outboxItems,
  pruneSent,
  retryItem,
  SENT_KEPT_MS,
  type SendOutcome,
  settle,
  type Transport,
} from './outbox.ts'
import { asSingleDrainer, startOutboxWorker } from './worker.ts'

const USER = 'user-1'
const ORG = 'org-1'
const scan = (value: string, userId = USER) =>
  enqueue({ kind: 'scan', userId, organizationId: ORG, value, label: value })
/** A scan of this user in ORG, labelled by its value, with the options a test sets (and `enqueue` of a reloaded module). */
const scanWith = (value: string, options: { now?: Date; id?: string; claim?: boolean }, make = enqueue) =>
  make({ kind: 'scan', userId: USER, organizationId: ORG, value, label: value, ...options })

const sent = (item: OutboxItem): SendOutcome => ({
  kind: 'sent',
  result: { status: 'unknown', scanId: item.id, value: item.value },
})
/** A transport the server answers every item of. */
const sending = () => vi.fn<Transport>(async (item) => sent(item))

beforeEach(async () => {
  await resetOfflineDbForTests()
})

afterEach(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
  vi.unstubAllGlobals()
  localStorage.clear()
})

describe('outbox', () => {
  it('sends the items in the order they were made, each with its own UUID, once', async () => {
    const made = [await scan('A-1'), await scan('A-2'), await scan('A-3')]
    const seen: OutboxItem[] = []
    const report = await drain(
      async (item) => {
        seen.push(item)
        return sent(item)
      },
      { userId: USER },
    )
    expect(seen.map((item) => item.value)).toEqual(['A-1', 'A-2', 'A-3'])
    expect(new Set(seen.map((item) => item.id)).size).toBe(3)
    expect(seen.map((item) => item.id)).toEqual(made.map((item) => item.id))
    expect(report).toMatchObject({ sent: 3, refused: 0, stoppedUnreachable: false })
    expect((await outboxItems()).map((item) => item.status)).toEqual(['sent', 'sent', 'sent'])
    // A second drain has nothing left to send.
    const again = vi.fn<Transport>()
    await drain(again, { userId: USER })
    expect(again).not.toHaveBeenCalled()
  })

  it('keeps the same key across attempts, stops at the first unanswered item and backs off', async () => {
    await scan('B-1')
    await scan('B-2')
    const keys: string[] = []
    let clock = new Date('2030-01-15T09:00:00Z')
    const now = () => clock
    const unreachable: Transport = async (item) => {
      keys.push(item.id)
      return { kind: 'unreachable' }
    }
    const first = await drain(unreachable, { userId: USER, now })
    expect(first.stoppedUnreachable).toBe(true)
    expect(keys).toHaveLength(1) // B-2 was not tried: the network is down for it too
    const [b1] = await outboxItems()
    expect(b1).toMatchObject({ status: 'pending', attempts: 1, nextAttemptAt: clock.getTime() + 2000 })

    // Before the backoff ends nothing is sent; after it, the same key goes again.
    await drain(unreachable, { userId: USER, now })
    expect(keys).toHaveLength(1)
    clock = new Date(clock.getTime() + 2000)
    await drain(unreachable, { userId: USER, now })
    expect(keys).toEqual([b1!.id, b1!.id])
    expect((await outboxItems())[0]!.nextAttemptAt).toBe(clock.getTime() + 4000)

    // The network is back: `force` skips the wait, both go, B-1 still under its first key.
    const delivered: string[] = []
    await drain(
      async (item) => {
        delivered.push(item.id)
        return sent(item)
      },
      { userId: USER, now, force: true },
    )
    expect(delivered[0]).toBe(b1!.id)
    expect(delivered).toHaveLength(2)
  })

  it('grows the backoff exponentially up to a cap', () => {
    expect([1, 2, 3, 4].map(backoffDelay)).toEqual([2000, 4000, 8000, 16000])
    expect(backoffDelay(30)).toBe(BACKOFF_CAP_MS)
  })

  it('keeps a refused item as failed with the server’s reason, goes on, and lets the person retry or discard', async () => {
    const refused = await scan('C-1')
    await scan('C-2')
    const report = await drain(
      async (item) =>
        item.id === refused.id
          ? { kind: 'refused', status: 409, code: 'pickup_refused', message: 'Ce transfert a été annulé.' }
          : sent(item),
      { userId: USER },
    )
    expect(report).toMatchObject({ sent: 1, refused: 1 })
    const [failed, other] = await outboxItems()
    expect(failed).toMatchObject({
      status: 'failed',
      error: { status: 409, code: 'pickup_refused', message: 'Ce transfert a été annulé.' },
    })
    expect(other!.status).toBe('sent')

    // Pending work is never discarded; a failed item is, on request.
    const pending = await scan('C-3')
    await discardItem(pending.id)
    expect((await outboxItems()).map((item) => item.value)).toContain('C-3')

    await retryItem(failed!.id)
    const retried: string[] = []
    await drain(
      async (item) => {
        retried.push(item.id)
        return sent(item)
      },
      { userId: USER },
    )
    expect(retried[0]).toBe(failed!.id)
    await scan('C-4')
    const refusedAgain = await outboxItems()
    await drain(async () => ({ kind: 'refused', status: 409, code: 'x', message: 'no' }), { userId: USER })
    const last = (await outboxItems()).at(-1)!
    expect(last.status).toBe('failed')
    await discardItem(last.id)
    expect((await outboxItems()).length).toBe(refusedAgain.length - 1)
  })

  it('never sends another account’s actions with this session', async () => {
    await scan('D-1', 'someone-else')
    await scan('D-2')
    const seen: string[] = []
    await drain(
      async (item) => {
        seen.push(item.value)
        return sent(item)
      },
      { userId: USER },
    )
    expect(seen).toEqual(['D-2'])
    expect((await outboxItems()).find((item) => item.value === 'D-1')!.status).toBe('pending')
  })

  it('survives the database connection being lost: it reopens and carries on', async () => {
    await scan('E-1')
    offlineDb().close()
    expect(await withDb((db) => db.outbox.count())).toBe(1)
    await scan('E-2')
    expect((await outboxItems()).map((item) => item.value)).toEqual(['E-1', 'E-2'])
  })

  it('never queues an action twice when the connection is lost after its write committed', async () => {
    const table = offlineDb().outbox
    // The write reaches the database, then the connection drops before the answer: withDb retries.
    const lostOnce = <M extends 'add' | 'put'>(method: M) => {
      const original = table[method].bind(table) as (...args: unknown[]) => Promise<unknown>
      let lost = false
      vi.spyOn(table, method).mockImplementation((async (...args: unknown[]) => {
        const key = await original(...args)
        if (lost) return key
        lost = true
        throw Object.assign(new Error('Database has been closed'), { name: 'DatabaseClosedError' })
      }) as never)
    }
    lostOnce('add')
    lostOnce('put')
    const item = await scan('G-1')
    const stored = await outboxItems()
    expect(stored).toHaveLength(1)
    expect(stored[0]).toEqual(item)
  })
})

describe('an action sent at once', () => {
  it('is left alone by a drain from its write until its first try ends', async () => {
    const item = await scanWith('A-1', { claim: true })
    const seen: string[] = []
    const transport: Transport = async (each) => {
      seen.push(each.id)
      return sent(each)
    }
    expect((await drain(transport, { userId: USER })).sent).toBe(0)
    inFlight.delete(item.id)
    expect((await drain(transport, { userId: USER })).sent).toBe(1)
    expect(seen).toEqual([item.id])
  })
})

describe('single drainer', () => {
  it('lets one drain run at a time across tabs (Web Locks)', async () => {
    const held = new Set<string>()
    vi.stubGlobal('navigator', {
      ...navigator,
      locks: {
        request: async (
          name: string,
          _options: unknown,
          callback: (lock: object | null) => Promise<unknown>,
        ) => {
          if (held.has(name)) return callback(null)
          held.add(name)
          try {
            return await callback({})
          } finally {
            held.delete(name)
          }
        },
      },
    })
    let release!: () => void
    const first = asSingleDrainer(
      () => new Promise<string>((resolve) => (release = () => resolve('first'))),
      'a',
    )
    expect(await asSingleDrainer(async () => 'second', 'b')).toBeNull()
    release()
    expect(await first).toBe('first')
    expect(await asSingleDrainer(async () => 'third', 'b')).toBe('third')
  })

  it('falls back to a lease in localStorage without Web Locks', async () => {
    vi.stubGlobal('navigator', { ...navigator, locks: undefined })
    let release!: () => void
    const first = asSingleDrainer(
      () => new Promise<string>((resolve) => (release = () => resolve('first'))),
      'a',
    )
    expect(await asSingleDrainer(async () => 'other tab', 'b')).toBeNull()
    release()
    expect(await first).toBe('first')
    expect(await asSingleDrainer(async () => 'now free', 'b')).toBe('now free')
  })

  it('renews the localStorage lease while a long drain runs, and stops renewing when it ends', async () => {
    vi.stubGlobal('navigator', { ...navigator, locks: undefined })
    vi.useFakeTimers()
    let release!: () => void
    const first = asSingleDrainer(
      () => new Promise<string>((resolve) => (release = () => resolve('first'))),
      'a',
    )
    // 1 000 scans on a slow line: well past the 30 s lease, another tab still may not drain.
    await vi.advanceTimersByTimeAsync(31_000)
    expect(await asSingleDrainer(async () => 'other tab', 'b')).toBeNull()
    await vi.advanceTimersByTimeAsync(60_000)
    expect(await asSingleDrainer(async () => 'other tab', 'b')).toBeNull()
    release()
    expect(await first).toBe('first')
    expect(vi.getTimerCount()).toBe(0)
    expect(await asSingleDrainer(async () => 'now free', 'b')).toBe('now free')
  })

  it('does not take the lease back from a tab that got it after this one’s lapsed', async () => {
    vi.stubGlobal('navigator', { ...navigator, locks: undefined })
    vi.useFakeTimers()
    let release!: () => void
    const first = asSingleDrainer(() => new Promise<void>((resolve) => (release = resolve)), 'a')
    localStorage.setItem('trousseau-outbox-lease', JSON.stringify({ tab: 'b', until: Date.now() + 30_000 }))
    await vi.advanceTimersByTimeAsync(20_000)
    expect(JSON.parse(localStorage.getItem('trousseau-outbox-lease')!)).toMatchObject({ tab: 'b' })
    release()
    await first
    expect(JSON.parse(localStorage.getItem('trousseau-outbox-lease')!)).toMatchObject({ tab: 'b' })
  })
})

describe('background sync (public/sw-outbox-sync.js)', () => {
  const source = readFileSync(join(import.meta.dirname, '../../public/sw-outbox-sync.js'), 'utf8')

  /** Runs the service worker script against a fake `self` and fires one `sync` event at it. */
  const fireSync = (windows: { postMessage: (message: unknown) => void }[], tag = 'trousseau-outbox') => {
    let handler: ((event: unknown) => void) | undefined
    const self = {
      addEventListener: (type: string, listener: (event: unknown) => void) => {
        if (type === 'sync') handler = listener
      },
      clients: { matchAll: vi.fn(async () => windows) },
    }
    new Function('self', source)(self)
    let waited: Promise<unknown> | undefined
    handler!({ tag, waitUntil: (promise: Promise<unknown>) => (waited = promise) })
    return { waited, matchAll: self.clients.matchAll }
  }

  it('fails the sync when no window of the app is open, so the browser tries it again later', async () => {
    const { waited } = fireSync([])
    await expect(waited).rejects.toThrow()
  })

  it('asks every open window to drain its outbox', async () => {
    const client = { postMessage: vi.fn() }
    const { waited, matchAll } = fireSync([client])
    await expect(waited).resolves.toBeUndefined()
    expect(matchAll).toHaveBeenCalledWith({ type: 'window', includeUncontrolled: true })
    expect(client.postMessage).toHaveBeenCalledWith({ type: 'drain-outbox' })
  })

  it('leaves other sync tags alone', () => {
    const { waited, matchAll } = fireSync([], 'something-else')
    expect(waited).toBeUndefined()
    expect(matchAll).not.toHaveBeenCalled()
  })
})

describe('outbox worker', () => {
  it('sends nothing when this tab’s session now belongs to someone else, and holds scans of another organization', async () => {
    vi.stubGlobal('navigator', { ...navigator, locks: undefined })
    await scan('F-1') // made in ORG
    const pickup = await enqueue({
      kind: 'pickup',
      userId: USER,
      organizationId: ORG,
      value: 't-1',
      label: 'Cave',
    })
    const transport = sending()

    const elsewhere = startOutboxWorker({ userId: USER, session: async () => null, transport })
    expect(await elsewhere.wake()).toBeNull()
    elsewhere.stop()
    expect(transport).not.toHaveBeenCalled()

    const otherOrganization = startOutboxWorker({
      userId: USER,
      session: async () => ({ selectedOrganizationId: 'org-2' }),
      transport,
    })
    await otherOrganization.wake()
    otherOrganization.stop()
    expect(transport.mock.calls.map(([item]) => item.id)).toEqual([pickup.id])
    expect((await outboxItems()).find((item) => item.value === 'F-1')!.status).toBe('pending')
  })
})

describe('the outbox, item by item', () => {
  const T0 = new Date('2030-01-15T09:00:00.000Z')

  it('waits 2 s after a first failure whatever the count says, and never more than 5 minutes', () => {
    expect(backoffDelay(0)).toBe(2000)
    expect(backoffDelay(1)).toBe(2000)
    expect(backoffDelay(8)).toBe(256_000)
    expect(backoffDelay(9)).toBe(BACKOFF_CAP_MS)
    expect(BACKOFF_CAP_MS).toBe(300_000)
  })

  it('keeps a new action pending, never tried, with when and what the person did', async () => {
    const item = await enqueue({
      kind: 'pickup',
      userId: USER,
      organizationId: ORG,
      value: 'tr-1',
      label: 'Cave',
      now: T0,
      id: 'made-by-the-caller',
    })
    expect(item).toEqual({
      id: 'made-by-the-caller',
      seq: expect.any(Number),
      kind: 'pickup',
      userId: USER,
      organizationId: ORG,
      value: 'tr-1',
      label: 'Cave',
      clientTime: T0.toISOString(),
      status: 'pending',
      attempts: 0,
      nextAttemptAt: 0,
      error: null,
      result: null,
      sentAt: null,
    })
    expect(await offlineDb().outbox.get('made-by-the-caller')).toEqual(item)
    expect(inFlight.has(item.id)).toBe(false)
  })

  it('orders actions strictly, even made in the same millisecond or with a clock set back', async () => {
    const first = await scanWith('a', { now: T0 })
    const second = await scanWith('b', { now: T0 })
    const earlier = new Date(T0.getTime() - 60_000)
    const third = await scanWith('c', { now: earlier })
    expect(first.seq).toBeGreaterThanOrEqual(T0.getTime())
    expect(second.seq).toBe(first.seq + 1)
    expect(third.seq).toBe(second.seq + 1)
    const later = new Date(T0.getTime() + 3_600_000)
    const fourth = await scanWith('d', { now: later })
    expect(fourth.seq).toBe(later.getTime())
  })

  it('goes on after the last action this tab made, even once the outbox is emptied', async () => {
    const first = await scanWith('a', { now: T0 })
    await offlineDb().outbox.clear()
    const earlier = new Date(T0.getTime() - 60_000)
    const second = await scanWith('b', { now: earlier })
    expect(second.seq).toBe(first.seq + 1)
  })

  it('goes on after the last action kept on the device, in a tab loaded since', async () => {
    // The last one made has the smaller id: the order is the sequence's, not the ids'.
    await scanWith('a', { now: T0, id: 'z' })
    const kept = await scanWith('b', { now: T0, id: 'a' })
    offlineDb().close()
    vi.resetModules()
    const reloaded = await import('./outbox.ts')
    const earlier = new Date(T0.getTime() - 60_000)
    const next = await scanWith('b', { now: earlier }, reloaded.enqueue)
    expect(next.seq).toBe(kept.seq + 1)
    const { offlineDb: reloadedDb } = await import('./db.ts')
    reloadedDb().close()
  })

  it('refuses a new action under the id of one already kept, rather than answer the old one', async () => {
    const kept = await scanWith('a', { id: 'same' })
    await expect(
      enqueue({ kind: 'pickup', userId: USER, organizationId: ORG, value: 'tr-1', label: 'b', id: 'same' }),
    ).rejects.toThrow()
    expect(await outboxItems()).toEqual([kept])
  })

  it('claims an action sent at once, and gives the claim up when it cannot be kept', async () => {
    const claimed = await scanWith('a', { claim: true })
    expect(inFlight.has(claimed.id)).toBe(true)
    inFlight.delete(claimed.id)
    vi.spyOn(offlineDb().outbox, 'add').mockRejectedValue(new Error('QuotaExceededError'))
    await expect(scanWith('b', { claim: true, id: 'lost' })).rejects.toThrow('QuotaExceededError')
    expect(inFlight.has('lost')).toBe(false)
  })

  it('asks the service worker for a Background Sync when an attempt got no answer, and not otherwise', async () => {
    const register = vi.fn(async (_tag: string) => {})
    const getRegistration = vi.fn(async () => ({ sync: { register } }))
    vi.stubGlobal('navigator', { ...navigator, serviceWorker: { getRegistration } })
    const item = await scan('S-1')
    expect(await settle(item, { kind: 'serverError', status: 502, code: 'x', message: 'y' }, T0)).toBe(false)
    expect(await settle(item, { kind: 'refused', status: 409, code: 'x', message: 'y' }, T0)).toBe(true)
    expect(getRegistration).not.toHaveBeenCalled()
    const other = await scan('S-2')
    expect(await settle(other, { kind: 'unreachable' }, T0)).toBe(false)
    await vi.waitFor(() => expect(register).toHaveBeenCalledWith('trousseau-outbox'))
  })

  it('goes on without Background Sync where the browser refuses or lacks it', async () => {
    const getRegistration = vi.fn(async () => Promise.reject(new Error('SecurityError')))
    vi.stubGlobal('navigator', { ...navigator, serviceWorker: { getRegistration } })
    const item = await scan('S-1')
    expect(await settle(item, { kind: 'unreachable' }, T0)).toBe(false)
    await vi.waitFor(() => expect(getRegistration).toHaveBeenCalled())
    vi.stubGlobal('navigator', { ...navigator, serviceWorker: { getRegistration: async () => ({}) } })
    expect(await settle(item, { kind: 'unreachable' }, T0)).toBe(false)
    expect(await offlineDb().outbox.get(item.id)).toMatchObject({ status: 'pending', attempts: 2 })
  })

  it('sends an item whose backoff ends now, and reports when the next one is due', async () => {
    const due = await scan('N-1')
    const waiting = await scan('N-2')
    await offlineDb().outbox.update(due.id, { nextAttemptAt: T0.getTime() })
    await offlineDb().outbox.update(waiting.id, { nextAttemptAt: T0.getTime() + 1 })
    const transport = sending()
    expect(await drain(transport, { userId: USER, now: () => T0 })).toEqual({
      sent: 1,
      refused: 0,
      serverFailed: 0,
      stoppedUnreachable: false,
      nextAttemptAt: T0.getTime() + 1,
    })
    expect(transport.mock.calls.map(([item]) => item.value)).toEqual(['N-1'])
  })

  it('holds the items the caller says must wait, and sends the others', async () => {
    await scan('W-1')
    await scan('W-2')
    const transport = sending()
    expect(await drain(transport, { userId: USER, canSend: (item) => item.value !== 'W-1' })).toMatchObject({
      sent: 1,
    })
    expect(transport.mock.calls.map(([item]) => item.value)).toEqual(['W-2'])
  })

  it('stops at a server error below the limit, without counting the item as given up', async () => {
    await scan('E-1')
    await scan('E-2')
    const transport = vi.fn<Transport>(async () => ({
      kind: 'serverError',
      status: 500,
      code: 'x',
      message: 'y',
    }))
    expect(await drain(transport, { userId: USER, now: () => T0 })).toEqual({
      sent: 0,
      refused: 0,
      serverFailed: 0,
      stoppedUnreachable: true,
      nextAttemptAt: T0.getTime() + 2000,
    })
    expect(transport).toHaveBeenCalledTimes(1)
  })

  it('puts a failed item back in line as new: pending, due now, no reason, no run of server errors', async () => {
    const item = await scan('R-1')
    await offlineDb().outbox.update(item.id, {
      status: 'failed',
      nextAttemptAt: T0.getTime(),
      error: { status: 500, code: 'x', message: 'y' },
      serverErrors: 5,
    } as never)
    await retryItem(item.id)
    expect(await offlineDb().outbox.get(item.id)).toMatchObject({
      status: 'pending',
      nextAttemptAt: 0,
      error: null,
      serverErrors: 0,
    })
  })

  it('keeps sent items a day, then prunes them; never a pending or failed one', async () => {
    const now = new Date('2030-01-15T09:00:00.000Z')
    const aDayAgo = new Date(now.getTime() - SENT_KEPT_MS).toISOString()
    const older = new Date(now.getTime() - SENT_KEPT_MS - 1).toISOString()
    const kept = await scan('P-1')
    const pruned = await scan('P-2')
    const failed = await scan('P-3')
    const pending = await scan('P-4')
    await offlineDb().outbox.update(kept.id, { status: 'sent', sentAt: aDayAgo })
    await offlineDb().outbox.update(pruned.id, { status: 'sent', sentAt: older })
    await offlineDb().outbox.update(failed.id, { status: 'failed', sentAt: older })
    await offlineDb().outbox.update(pending.id, { sentAt: older })
    await pruneSent(now)
    expect((await outboxItems()).map((item) => item.value)).toEqual(['P-1', 'P-3', 'P-4'])
    expect(SENT_KEPT_MS).toBe(86_400_000)
  })

  it('prunes a sent item that has no time of sending', async () => {
    const item = await scan('P-1')
    await offlineDb().outbox.update(item.id, { status: 'sent', sentAt: null })
    await pruneSent(new Date('2030-01-15T09:00:00.000Z'))
    expect(await outboxItems()).toEqual([])
  })

  it('prunes by the device’s clock when no time is given', async () => {
    const item = await scan('P-1')
    await offlineDb().outbox.update(item.id, { status: 'sent', sentAt: '2020-01-01T00:00:00.000Z' })
    await pruneSent()
    expect(await outboxItems()).toEqual([])
  })

  it('says whether the user has anything waiting, not counting another account’s or what was sent', async () => {
    expect(await hasPending(USER)).toBe(false)
    await scan('H-1', 'someone-else')
    expect(await hasPending(USER)).toBe(false)
    const mine = await scan('H-2')
    expect(await hasPending(USER)).toBe(true)
    await settle(mine, sent(mine))
    expect(await hasPending(USER)).toBe(false)
  })
})
