import 'fake-indexeddb/auto'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { OutboxItem } from './db.ts'
import { resetOfflineDbForTests } from './db.ts'
import { watchOutbox } from './live.ts'
import { enqueue, outboxItems } from './outbox.ts'

/** Watching the outbox: the user's items now and after every change, and a failed read watched again. */

vi.mock('./outbox.ts', async (original) => {
  const real = await original<typeof import('./outbox.ts')>()
  return { ...real, outboxItems: vi.fn(real.outboxItems) }
})

const ME = 'user-me'
const SOMEONE_ELSE = 'user-other'
const add = (userId: string, label: string) =>
  enqueue({ kind: 'scan', userId, organizationId: 'org-1', value: label, label })
const labels = (items: OutboxItem[] | undefined) => items?.map((item) => item.label)

beforeEach(async () => {
  await resetOfflineDbForTests()
})

afterEach(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
  vi.mocked(outboxItems).mockClear()
})

describe('watching the outbox', () => {
  it('gives the user’s own items now, oldest first, and again after every change', async () => {
    await add(ME, 'first')
    await add(SOMEONE_ELSE, 'not mine')
    const next = vi.fn<(items: OutboxItem[]) => void>()
    const stop = watchOutbox(ME, next)
    await vi.waitFor(() => expect(labels(next.mock.lastCall?.[0])).toEqual(['first']))
    await add(ME, 'second')
    await vi.waitFor(() => expect(labels(next.mock.lastCall?.[0])).toEqual(['first', 'second']))
    stop()
  })

  it('gives nothing more once stopped', async () => {
    const next = vi.fn<(items: OutboxItem[]) => void>()
    const stop = watchOutbox(ME, next)
    await vi.waitFor(() => expect(next).toHaveBeenCalledWith([]))
    stop()
    const calls = next.mock.calls.length
    await add(ME, 'after')
    // A watcher still running would have read the new item by the time another one sees it.
    const witness = vi.fn<(items: OutboxItem[]) => void>()
    const stopWitness = watchOutbox(ME, witness)
    await vi.waitFor(() => expect(labels(witness.mock.lastCall?.[0])).toEqual(['after']))
    stopWitness()
    expect(next).toHaveBeenCalledTimes(calls)
  })

  it('warns of a failed read and watches again two seconds later', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const lost = new Error('Connection to Indexed Database server lost')
    const warned = new Promise<void>((resolve) =>
      vi.spyOn(console, 'warn').mockImplementation(() => resolve()),
    )
    vi.mocked(outboxItems).mockRejectedValueOnce(lost)
    const next = vi.fn<(items: OutboxItem[]) => void>()
    const stop = watchOutbox(ME, next)
    await vi.advanceTimersByTimeAsync(0)
    await warned
    expect(console.warn).toHaveBeenCalledWith('Outbox read failed', lost)
    expect(next).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(1_999)
    expect(outboxItems).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(1)
    await vi.waitFor(() => expect(outboxItems).toHaveBeenCalledTimes(2))
    await vi.waitFor(() => expect(next).toHaveBeenCalledWith([]))
    stop()
  })

  it('does not watch again once stopped while it waited to retry', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const warned = new Promise<void>((resolve) =>
      vi.spyOn(console, 'warn').mockImplementation(() => resolve()),
    )
    vi.mocked(outboxItems).mockRejectedValueOnce(new Error('Connection to Indexed Database server lost'))
    const next = vi.fn<(items: OutboxItem[]) => void>()
    const stop = watchOutbox(ME, next)
    await vi.advanceTimersByTimeAsync(0)
    await warned
    stop()
    await vi.advanceTimersByTimeAsync(5_000)
    expect(outboxItems).toHaveBeenCalledTimes(1)
    expect(next).not.toHaveBeenCalled()
  })
})
