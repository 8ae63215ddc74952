import 'fake-indexeddb/auto'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { OutboxItem } from './db.ts'
import { offlineDb, resetOfflineDbForTests } from './db.ts'
import { enqueue, type SendOutcome, type Transport } from './outbox.ts'
import { startOutboxWorker } from './worker.ts'

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
