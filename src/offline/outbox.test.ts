import 'fake-indexeddb/auto'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { OutboxItem } from './db.ts'
import { offlineDb, resetOfflineDbForTests, withDb } from './db.ts'
import {
  BACKOFF_CAP_MS,
  backoffDelay,
  discardItem,
  drain,
  enqueue,
  outboxItems,
  retryItem,
  type SendOutcome,
  type Transport,
} from './outbox.ts'
import { asSingleDrainer, startOutboxWorker } from './worker.ts'

const USER = 'user-1'
const ORG = 'org-1'
const scan = (value: string, userId = USER) =>
  enqueue({ kind: 'scan', userId, organizationId: ORG, value, label: value })

const sent = (item: OutboxItem): SendOutcome => ({
  kind: 'sent',
  result: { status: 'unknown', scanId: item.id, value: item.value },
})

beforeEach(async () => {
  await resetOfflineDbForTests()
})

afterEach(() => {
  vi.unstubAllGlobals()
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
    const transport = vi.fn<Transport>(async (item) => sent(item))

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
