import 'fake-indexeddb/auto'
import { afterEach, beforeEach, describe, expect, it, type Mock, vi } from 'vitest'
import type { OutboxItem } from './db.ts'
import { offlineDb, resetOfflineDbForTests } from './db.ts'
import { type DrainReport, enqueue, type SendOutcome, type Transport } from './outbox.ts'
import { asSingleDrainer, startOutboxWorker } from './worker.ts'

/** When the outbox worker drains: at start, online, back in the foreground, on the service worker's word. */

const USER = 'user-1'
const sent = (item: OutboxItem): SendOutcome => ({
  kind: 'sent',
  result: { status: 'unknown', scanId: item.id, value: item.value },
})
const scan = () => enqueue({ kind: 'scan', userId: USER, organizationId: 'org-1', value: 'x', label: 'x' })

beforeEach(async () => {
  await resetOfflineDbForTests()
  vi.stubGlobal('navigator', { ...navigator, locks: undefined })
})

afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
  localStorage.clear()
})

describe('the outbox worker', () => {
  it('drains at start, reports what it sent, and stops listening once stopped', async () => {
    await scan()
    const transport = vi.fn<Transport>(async (item) => sent(item))
    const onDrained = vi.fn()
    const worker = startOutboxWorker({ userId: USER, transport, onDrained })
    const report = await worker.wake()
    expect(transport).toHaveBeenCalledTimes(1)
    expect(report).toMatchObject({ sent: 1 })
    expect(onDrained).toHaveBeenCalledWith(expect.objectContaining({ sent: 1 }))
    worker.stop()
    expect(await worker.wake()).toBeNull()
    await scan()
    window.dispatchEvent(new Event('online'))
    await vi.waitFor(async () =>
      expect(await offlineDb().outbox.where('status').equals('pending').count()).toBe(1),
    )
    expect(transport).toHaveBeenCalledTimes(1)
  })

  it('drains when the browser is back online, ignoring the backoff', async () => {
    const transport = vi.fn<Transport>(async () => ({ kind: 'unreachable' }))
    const worker = startOutboxWorker({ userId: USER, transport })
    await worker.wake()
    await scan()
    await worker.wake() // no answer: waits for its backoff
    expect(transport).toHaveBeenCalledTimes(1)
    transport.mockImplementation(async (item) => sent(item))
    await worker.wake()
    expect(transport).toHaveBeenCalledTimes(1)
    window.dispatchEvent(new Event('online'))
    await vi.waitFor(() => expect(transport).toHaveBeenCalledTimes(2))
    worker.stop()
  })

  it('drains when the service worker asks, and not for other messages', async () => {
    const listeners = new Map<string, (event: MessageEvent) => void>()
    const serviceWorker = {
      addEventListener: (type: string, listener: (event: MessageEvent) => void) =>
        listeners.set(type, listener),
      removeEventListener: vi.fn(),
    }
    vi.stubGlobal('navigator', { ...navigator, locks: undefined, serviceWorker })
    const transport = vi.fn<Transport>(async () => ({ kind: 'unreachable' }))
    const worker = startOutboxWorker({ userId: USER, transport })
    await worker.wake()
    await scan()
    await worker.wake()
    expect(transport).toHaveBeenCalledTimes(1)
    listeners.get('message')!(new MessageEvent('message', { data: { type: 'something-else' } }))
    listeners.get('message')!(new MessageEvent('message', { data: null }))
    await worker.wake()
    expect(transport).toHaveBeenCalledTimes(1)
    listeners.get('message')!(new MessageEvent('message', { data: { type: 'drain-outbox' } }))
    await vi.waitFor(() => expect(transport).toHaveBeenCalledTimes(2))
    worker.stop()
    expect(serviceWorker.removeEventListener).toHaveBeenCalledWith('message', listeners.get('message'))
  })

  it('drains when the app comes back to the foreground', async () => {
    const transport = vi.fn<Transport>(async (item) => sent(item))
    const worker = startOutboxWorker({ userId: USER, transport })
    await worker.wake()
    await scan()
    vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden')
    document.dispatchEvent(new Event('visibilitychange'))
    await worker.wake().then(() => undefined)
    vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('visible')
    document.dispatchEvent(new Event('visibilitychange'))
    await vi.waitFor(async () =>
      expect(await offlineDb().outbox.where('status').equals('sent').count()).toBe(1),
    )
    worker.stop()
  })
})

/** Lets IndexedDB (fake-indexeddb: setImmediate, never faked here) finish what it was doing. */
const idle = async () => {
  for (let i = 0; i < 100; i++) await new Promise((done) => setImmediate(done))
}

const START = new Date('2026-11-22T10:00:00.000Z')
const unreachable = async (): Promise<SendOutcome> => ({ kind: 'unreachable' })

/** A worker on a transport the server answers every item of. */
const startSending = () => {
  const transport = vi.fn<Transport>(async (item) => sent(item))
  return { transport, worker: startOutboxWorker({ userId: USER, transport }) }
}

/** A worker whose first drain is under way, its item waiting for the answer the test gives with `answer`. */
const startDraining = async (onDrained?: (report: DrainReport) => void) => {
  let answer: (outcome: SendOutcome) => void = () => {}
  const transport = vi.fn<Transport>(() => new Promise((done) => (answer = done)))
  const worker = startOutboxWorker({ userId: USER, transport, onDrained })
  await vi.waitFor(() => expect(transport).toHaveBeenCalledTimes(1))
  return { transport, worker, answer: (outcome: SendOutcome) => answer(outcome) }
}

/** `spy` is called no more in the next `quiet` ms, then once more within `then` ms after. */
const expectOneMoreCallAfter = async (spy: Mock, quiet: number, then: number, before = 0) => {
  await vi.advanceTimersByTimeAsync(quiet)
  await idle()
  expect(spy).toHaveBeenCalledTimes(before)
  await vi.advanceTimersByTimeAsync(then)
  await vi.waitFor(() => expect(spy).toHaveBeenCalledTimes(before + 1))
}

/** The app goes to the background (`hidden`) or comes back to the foreground (`visible`). */
const showApp = (state: DocumentVisibilityState) => {
  vi.spyOn(document, 'visibilityState', 'get').mockReturnValue(state)
  document.dispatchEvent(new Event('visibilitychange'))
}

/** The worker's timer: setTimeout and the clock faked, setImmediate (IndexedDB's) left alone. */
describe('when the outbox worker looks again', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    vi.setSystemTime(START)
  })

  it('looks again a minute after a drain that found nothing to send', async () => {
    const { transport, worker } = startSending()
    expect(await worker.wake()).toMatchObject({ sent: 0, nextAttemptAt: null })
    await scan()
    await expectOneMoreCallAfter(transport, 59_999, 1)
    worker.stop()
  })

  it('puts its next look off after each drain, keeping no earlier one', async () => {
    const { transport, worker } = startSending()
    await worker.wake()
    await vi.advanceTimersByTimeAsync(30_000)
    await worker.wake()
    await scan()
    await expectOneMoreCallAfter(transport, 30_000, 30_000)
    worker.stop()
  })

  it('looks again at the item’s backoff after no answer', async () => {
    await scan()
    const transport = vi.fn<Transport>(unreachable)
    const worker = startOutboxWorker({ userId: USER, transport })
    expect(await worker.wake()).toMatchObject({
      stoppedUnreachable: true,
      nextAttemptAt: START.getTime() + 2000,
    })
    transport.mockImplementation(async (item) => sent(item))
    await expectOneMoreCallAfter(transport, 1999, 1, 1)
    await vi.waitFor(async () =>
      expect(await offlineDb().outbox.where('status').equals('sent').count()).toBe(1),
    )
    expect(transport).toHaveBeenCalledTimes(2)
    worker.stop()
  })

  it('never looks again sooner than a second, even for an item due sooner', async () => {
    const item = await scan()
    await offlineDb().outbox.update(item.id, { nextAttemptAt: START.getTime() + 500 })
    const transport = vi.fn<Transport>(async (each) => sent(each))
    const worker = startOutboxWorker({ userId: USER, transport })
    expect(await worker.wake()).toMatchObject({ sent: 0, nextAttemptAt: START.getTime() + 500 })
    await expectOneMoreCallAfter(transport, 999, 1)
    worker.stop()
  })

  it('looks again 10 s after a drain that failed, and says why', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const failure = new Error('lock manager gone')
    const request = vi.fn(async (_name: string, _options: unknown, _callback: unknown): Promise<unknown> => {
      throw failure
    })
    vi.stubGlobal('navigator', { ...navigator, locks: { request } })
    const onDrained = vi.fn()
    const worker = startOutboxWorker({ userId: USER, transport: vi.fn<Transport>(unreachable), onDrained })
    expect(await worker.wake()).toBeNull()
    expect(warn).toHaveBeenCalledWith('Outbox drain failed', failure)
    expect(onDrained).not.toHaveBeenCalled()
    await expectOneMoreCallAfter(request, 9_999, 1, request.mock.calls.length)
    worker.stop()
  })

  it('looks again a minute later when another tab holds the drain', async () => {
    localStorage.setItem(
      'trousseau-outbox-lease',
      JSON.stringify({ tab: 'other', until: START.getTime() + 120_000 }),
    )
    await scan()
    const transport = vi.fn<Transport>(async (item) => sent(item))
    const onDrained = vi.fn()
    const worker = startOutboxWorker({ userId: USER, transport, onDrained })
    expect(await worker.wake()).toBeNull()
    expect(onDrained).not.toHaveBeenCalled()
    localStorage.clear()
    await expectOneMoreCallAfter(transport, 59_999, 1)
    worker.stop()
  })

  it('leaves no timer and no listener behind once stopped, between drains or during one', async () => {
    const addWindow = vi.spyOn(window, 'addEventListener')
    const addDocument = vi.spyOn(document, 'addEventListener')
    const removeWindow = vi.spyOn(window, 'removeEventListener')
    const removeDocument = vi.spyOn(document, 'removeEventListener')
    const idleWorker = startOutboxWorker({ userId: USER, transport: vi.fn<Transport>(unreachable) })
    await idleWorker.wake()
    idleWorker.stop()
    await scan()
    const { worker: busy, answer } = await startDraining()
    const draining = busy.wake()
    busy.stop()
    answer({ kind: 'unreachable' })
    await draining
    await idle()
    // Dexie's own zero-delay timers go first.
    await vi.advanceTimersByTimeAsync(1)
    expect(vi.getTimerCount()).toBe(0)
    const added = (spy: typeof addWindow, type: string) =>
      spy.mock.calls.filter(([each]) => each === type).map(([, listener]) => listener)
    const removed = (spy: typeof removeWindow, type: string) =>
      spy.mock.calls.filter(([each]) => each === type).map(([, listener]) => listener)
    expect(added(addWindow, 'online')).toHaveLength(2)
    expect(removed(removeWindow, 'online')).toEqual(added(addWindow, 'online'))
    expect(added(addDocument, 'visibilitychange')).toHaveLength(2)
    expect(removed(removeDocument, 'visibilitychange')).toEqual(added(addDocument, 'visibilitychange'))
  })

  it('does not look again once stopped', async () => {
    const { transport, worker } = startSending()
    await worker.wake()
    worker.stop()
    await scan()
    await vi.advanceTimersByTimeAsync(120_000)
    await idle()
    expect(transport).not.toHaveBeenCalled()
  })

  it('does not look again when stopped during a drain', async () => {
    await scan()
    const { transport, worker, answer } = await startDraining()
    const draining = worker.wake()
    worker.stop()
    answer({ kind: 'unreachable' })
    expect(await draining).toMatchObject({ stoppedUnreachable: true })
    await vi.advanceTimersByTimeAsync(120_000)
    await idle()
    expect(transport).toHaveBeenCalledTimes(1)
  })
})

describe('drains that meet', () => {
  it('answers a wake during a drain with that drain, and drains again at once when the network came back meanwhile', async () => {
    await scan()
    const onDrained = vi.fn()
    const { transport, worker, answer } = await startDraining(onDrained)
    const first = worker.wake()
    const forced = worker.wake(true)
    transport.mockImplementation(async (item) => sent(item))
    answer({ kind: 'unreachable' })
    expect(await first).toMatchObject({ stoppedUnreachable: true })
    expect(await forced).toBe(await first)
    // The item waits for its backoff, but the network came back: it goes now.
    await vi.waitFor(async () =>
      expect(await offlineDb().outbox.where('status').equals('sent').count()).toBe(1),
    )
    expect(transport).toHaveBeenCalledTimes(2)
    expect(onDrained).toHaveBeenCalledTimes(2)
    worker.stop()
  })

  it('does not drain again after a drain for a wake that did not say the network came back', async () => {
    await scan()
    const onDrained = vi.fn<(report: DrainReport) => void>()
    const { worker, answer } = await startDraining(onDrained)
    const first = worker.wake()
    answer({ kind: 'unreachable' })
    await first
    await idle()
    expect(onDrained).toHaveBeenCalledTimes(1)
    worker.stop()
  })
})

describe('the session a drain sends with', () => {
  const pickup = () =>
    enqueue({ kind: 'pickup', userId: USER, organizationId: 'org-2', value: 'tr-1', label: 'Cave' })

  it('does not ask for the session when nothing waits', async () => {
    const session = vi.fn(async () => ({ selectedOrganizationId: 'org-1' }))
    const worker = startOutboxWorker({ userId: USER, session, transport: vi.fn<Transport>() })
    expect(await worker.wake()).toEqual({
      sent: 0,
      refused: 0,
      serverFailed: 0,
      stoppedUnreachable: false,
      nextAttemptAt: null,
    })
    expect(session).not.toHaveBeenCalled()
    worker.stop()
  })

  it('sends nothing and tries later when the server cannot be asked', async () => {
    await scan()
    const transport = vi.fn<Transport>(async (item) => sent(item))
    const onDrained = vi.fn()
    const session = vi.fn(async () => Promise.reject(new TypeError('Failed to fetch')))
    const worker = startOutboxWorker({ userId: USER, session, transport, onDrained })
    const report = { sent: 0, refused: 0, serverFailed: 0, stoppedUnreachable: true, nextAttemptAt: null }
    expect(await worker.wake()).toEqual(report)
    expect(onDrained).toHaveBeenCalledWith(report)
    expect(transport).not.toHaveBeenCalled()
    worker.stop()
  })

  it('sends a scan only while its organization is the selected one, and a pickup in any', async () => {
    const kept = await scan()
    await pickup()
    const transport = vi.fn<Transport>(async (item) => sent(item))
    const worker = startOutboxWorker({
      userId: USER,
      session: async () => ({ selectedOrganizationId: 'org-2' }),
      transport,
    })
    expect(await worker.wake()).toMatchObject({ sent: 1 })
    expect(transport.mock.calls.map(([item]) => item.kind)).toEqual(['pickup'])
    expect(await offlineDb().outbox.get(kept.id)).toMatchObject({ status: 'pending', attempts: 0 })
    worker.stop()
    const again = startOutboxWorker({
      userId: USER,
      session: async () => ({ selectedOrganizationId: 'org-1' }),
      transport,
    })
    expect(await again.wake()).toMatchObject({ sent: 1 })
    expect(transport.mock.calls.map(([item]) => item.kind)).toEqual(['pickup', 'scan'])
    again.stop()
  })

  it('sends a pairing, like a scan, only while its organization is the selected one', async () => {
    const pairing = { userId: USER, organizationId: 'org-1', value: 'tag-1', label: 'AGC-00001 → Cave' }
    await enqueue({ kind: 'pairCreate', ...pairing, pairing: { name: 'Cave', keyName: 'AGC-00001' } })
    await enqueue({ kind: 'pairAttach', ...pairing, pairing: { keychainId: 'kc-1', keyName: 'AGC-00001' } })
    const transport = vi.fn<Transport>(async (item) => sent(item))
    const elsewhere = startOutboxWorker({
      userId: USER,
      session: async () => ({ selectedOrganizationId: 'org-2' }),
      transport,
    })
    expect(await elsewhere.wake()).toMatchObject({ sent: 0 })
    elsewhere.stop()
    const here = startOutboxWorker({
      userId: USER,
      session: async () => ({ selectedOrganizationId: 'org-1' }),
      transport,
    })
    expect(await here.wake()).toMatchObject({ sent: 2 })
    expect(transport.mock.calls.map(([item]) => item.kind)).toEqual(['pairCreate', 'pairAttach'])
    here.stop()
  })

  it('sends a handover only while its organization is the selected one', async () => {
    await enqueue({
      kind: 'handover',
      userId: USER,
      organizationId: 'org-1',
      value: 'offer-1',
      label: 'Cave',
      handover: { keychainId: 'kc-1', handover: { offer: 'O', acceptance: 'A' } },
    })
    const transport = vi.fn<Transport>(async (item) => sent(item))
    const elsewhere = startOutboxWorker({
      userId: USER,
      session: async () => ({ selectedOrganizationId: 'org-2' }),
      transport,
    })
    expect(await elsewhere.wake()).toMatchObject({ sent: 0 })
    elsewhere.stop()
    const here = startOutboxWorker({
      userId: USER,
      session: async () => ({ selectedOrganizationId: 'org-1' }),
      transport,
    })
    expect(await here.wake()).toMatchObject({ sent: 1 })
    here.stop()
  })

  it('sends every item when it has no session to ask', async () => {
    await scan()
    await pickup()
    const { worker } = startSending()
    expect(await worker.wake()).toMatchObject({ sent: 2 })
    worker.stop()
  })

  it('prunes the sent items of over a day after a drain, not when the session is another account’s', async () => {
    const old = await scan()
    await offlineDb().outbox.update(old.id, { status: 'sent', sentAt: '2020-01-01T00:00:00.000Z' })
    await scan()
    const transport = vi.fn<Transport>(async (item) => sent(item))
    const other = startOutboxWorker({ userId: USER, session: async () => null, transport })
    expect(await other.wake()).toBeNull()
    other.stop()
    expect(await offlineDb().outbox.get(old.id)).toBeDefined()
    const worker = startOutboxWorker({ userId: USER, transport })
    await worker.wake()
    worker.stop()
    expect(await offlineDb().outbox.get(old.id)).toBeUndefined()
    expect(await offlineDb().outbox.where('status').equals('sent').count()).toBe(1)
  })

  it('no longer drains when the app comes to the foreground once stopped', async () => {
    const { transport, worker } = startSending()
    await worker.wake()
    worker.stop()
    await scan()
    showApp('visible')
    await idle()
    expect(transport).not.toHaveBeenCalled()
  })
})

describe('the foreground', () => {
  it('drains when the app comes back to the foreground, not when it leaves it', async () => {
    const { transport, worker } = startSending()
    await worker.wake()
    await scan()
    showApp('hidden')
    await idle()
    expect(transport).not.toHaveBeenCalled()
    showApp('visible')
    await vi.waitFor(() => expect(transport).toHaveBeenCalledTimes(1))
    worker.stop()
  })
})

describe('the drain lease (no Web Locks)', () => {
  const LEASE_KEY = 'trousseau-outbox-lease'

  it('takes the lease where there is no navigator at all', async () => {
    vi.stubGlobal('navigator', undefined)
    const seen = await asSingleDrainer(async () => localStorage.getItem(LEASE_KEY), 'tab-a')
    expect(JSON.parse(seen!)).toMatchObject({ tab: 'tab-a' })
    expect(localStorage.getItem(LEASE_KEY)).toBeNull()
  })

  it('ends well when the lease was cleared under it, and stops renewing it', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] })
    let release: () => void = () => {}
    const drained = asSingleDrainer(
      () =>
        new Promise<string>((done) => {
          release = () => done('drained')
        }),
      'tab-a',
    )
    localStorage.removeItem(LEASE_KEY)
    vi.advanceTimersByTime(10_000)
    expect(localStorage.getItem(LEASE_KEY)).toBeNull()
    vi.advanceTimersByTime(10_000)
    expect(localStorage.getItem(LEASE_KEY)).toBeNull()
    release()
    expect(await drained).toBe('drained')
    expect(localStorage.getItem(LEASE_KEY)).toBeNull()
  })

  it('leaves the lease another tab took meanwhile', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] })
    const theirs = JSON.stringify({ tab: 'tab-b', until: Date.now() + 30_000 })
    const drained = await asSingleDrainer(async () => {
      localStorage.setItem(LEASE_KEY, theirs)
      vi.advanceTimersByTime(10_000)
      return 'drained'
    }, 'tab-a')
    expect(drained).toBe('drained')
    expect(localStorage.getItem(LEASE_KEY)).toBe(theirs)
  })
})
