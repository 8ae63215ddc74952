import 'fake-indexeddb/auto'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { IDEMPOTENCY_KEY_HEADER } from '../../contract/scans.ts'
import { resetOfflineDbForTests } from './db.ts'
import {
  discardItem,
  drain,
  enqueue,
  outboxItems,
  retryItem,
  SERVER_ERROR_LIMIT,
  serverErrorsOf,
  type Transport,
} from './outbox.ts'
import { sendItem } from './transport.ts'

const USER = 'user-1'
const scan = (value: string) =>
  enqueue({ kind: 'scan', userId: USER, organizationId: 'org-1', value, label: value })

/** What the fake server does with one request: answer, or leave the request without an answer. */
type Behaviour = 'ok' | 'server-error' | 'bad-gateway' | 'network-down'

/**
 * A fake `fetch` standing for the API: each scan value behaves as `behaviour` says (ok by default); every request
 * is written down with its value and `Idempotency-Key`.
 */
function fakeServer() {
  const behaviour = new Map<string, Behaviour>()
  const requests: { value: string; key: string }[] = []
  const fetch = vi.fn(async (_url: string, init: RequestInit) => {
    const value = (JSON.parse(String(init.body)) as { value: string }).value
    const key = (init.headers as Record<string, string>)[IDEMPOTENCY_KEY_HEADER]!
    requests.push({ value, key })
    const json = (status: number, body: unknown) =>
      new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })
    switch (behaviour.get(value) ?? 'ok') {
      case 'network-down':
        throw new TypeError('Failed to fetch')
      case 'server-error':
        return json(500, { error: { code: 'internal_error', message: 'An error occurred.' } })
      case 'bad-gateway':
        return new Response('Bad Gateway', { status: 502, statusText: 'Bad Gateway' })
      default:
        return json(201, { status: 'unknown', scanId: key, value })
    }
  })
  vi.stubGlobal('fetch', fetch)
  return {
    behaviour,
    requests,
    keysOf: (value: string) => requests.filter((r) => r.value === value).map((r) => r.key),
  }
}

/** The worker's transport (`field-mode.ts`): the real one, replaying from the queue. */
const transport: Transport = (item) => sendItem(item, true)

/** A clock the test moves by hand; `drain` reads it for each backoff. */
function fakeClock(start = '2030-01-15T09:00:00Z') {
  let at = new Date(start).getTime()
  return { now: () => new Date(at), pass: (ms: number) => (at += ms) }
}

/** Drains as the worker would, waiting out each backoff, `times` times. */
async function drainRepeatedly(clock: ReturnType<typeof fakeClock>, times: number) {
  const reports = []
  for (let i = 0; i < times; i++) {
    const report = await drain(transport, { userId: USER, now: clock.now })
    reports.push(report)
    if (report.nextAttemptAt !== null) clock.pass(report.nextAttemptAt - clock.now().getTime())
  }
  return reports
}

beforeEach(async () => {
  await resetOfflineDbForTests()
})

afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

describe('an item the server keeps failing on (poison item)', () => {
  it(`is kept as failed after ${SERVER_ERROR_LIMIT} server errors in a row, with the reason, and the next items go`, async () => {
    const server = fakeServer()
    const clock = fakeClock()
    const poison = await scan('P-1')
    await scan('A-1')
    await scan('A-2')
    server.behaviour.set('P-1', 'server-error')

    // Each server error stops the drain (the server is in trouble) and backs off; the next items wait.
    const before = await drainRepeatedly(clock, SERVER_ERROR_LIMIT - 1)
    expect(before.every((report) => report.stoppedUnreachable && report.sent === 0)).toBe(true)
    expect(server.requests.map((r) => r.value)).toEqual(Array(SERVER_ERROR_LIMIT - 1).fill('P-1'))
    const [waiting] = await outboxItems()
    expect(waiting).toMatchObject({ id: poison.id, status: 'pending', error: null })
    expect(serverErrorsOf(waiting!)).toBe(SERVER_ERROR_LIMIT - 1)

    // The last server error in the bound: failed with the server's reason, and the others go at once.
    const report = await drain(transport, { userId: USER, now: clock.now })
    expect(report).toMatchObject({ sent: 2, refused: 0, serverFailed: 1, stoppedUnreachable: false })
    const [failed, a1, a2] = await outboxItems()
    expect(failed).toMatchObject({
      id: poison.id,
      status: 'failed',
      error: { status: 500, code: 'internal_error', message: 'An error occurred.' },
    })
    expect([a1!.status, a2!.status]).toEqual(['sent', 'sent'])
    expect(server.keysOf('P-1')).toEqual(Array(SERVER_ERROR_LIMIT).fill(poison.id))

    // A failed item is not sent again by itself.
    await drain(transport, { userId: USER, now: clock.now })
    expect(server.keysOf('P-1')).toHaveLength(SERVER_ERROR_LIMIT)
  })

  it('is sent again under the same key when the person retries it, with a new run of errors ahead', async () => {
    const server = fakeServer()
    const clock = fakeClock()
    const poison = await scan('P-1')
    server.behaviour.set('P-1', 'server-error')
    await drainRepeatedly(clock, SERVER_ERROR_LIMIT)
    expect((await outboxItems())[0]!.status).toBe('failed')

    // Retried while the server still fails: it gets the whole bound again, not one try.
    await retryItem(poison.id)
    expect(serverErrorsOf((await outboxItems())[0]!)).toBe(0)
    await drain(transport, { userId: USER, now: clock.now })
    expect((await outboxItems())[0]).toMatchObject({ status: 'pending', error: null })

    // The server was fixed: the next try goes through, under the key it always had (exactly once).
    server.behaviour.delete('P-1')
    await drain(transport, { userId: USER, now: clock.now, force: true })
    const [item] = await outboxItems()
    expect(item).toMatchObject({ id: poison.id, status: 'sent', error: null })
    expect(new Set(server.keysOf('P-1'))).toEqual(new Set([poison.id]))
    expect(server.keysOf('P-1')).toHaveLength(SERVER_ERROR_LIMIT + 2)
  })

  it('can be discarded once failed (and not before)', async () => {
    const server = fakeServer()
    const clock = fakeClock()
    const poison = await scan('P-1')
    server.behaviour.set('P-1', 'bad-gateway') // a proxy's 5xx without a JSON body counts the same
    await drainRepeatedly(clock, SERVER_ERROR_LIMIT - 1)
    await discardItem(poison.id)
    expect((await outboxItems()).map((item) => item.id)).toEqual([poison.id]) // pending: kept

    await drain(transport, { userId: USER, now: clock.now })
    const [failed] = await outboxItems()
    expect(failed).toMatchObject({ status: 'failed', error: { status: 502, code: 'http_error' } })
    await discardItem(poison.id)
    expect(await outboxItems()).toEqual([])
  })

  it('is never failed by the network: no answer keeps it pending, retried with backoff, for as long as it takes', async () => {
    const server = fakeServer()
    const clock = fakeClock()
    const kept = await scan('N-1')
    await scan('A-1')
    server.behaviour.set('N-1', 'network-down')
    const reports = await drainRepeatedly(clock, SERVER_ERROR_LIMIT * 4)
    expect(reports.every((report) => report.stoppedUnreachable && report.sent === 0)).toBe(true)
    const [item, next] = await outboxItems()
    expect(item).toMatchObject({
      id: kept.id,
      status: 'pending',
      error: null,
      attempts: SERVER_ERROR_LIMIT * 4,
    })
    expect(serverErrorsOf(item!)).toBe(0)
    expect(next!.status).toBe('pending') // order kept: nothing overtakes an unanswered item
    expect(server.keysOf('A-1')).toEqual([])

    // Server errors interrupted by network failures still count only the answers.
    server.behaviour.set('N-1', 'server-error')
    await drainRepeatedly(clock, SERVER_ERROR_LIMIT - 1)
    server.behaviour.set('N-1', 'network-down')
    await drainRepeatedly(clock, 3)
    expect((await outboxItems())[0]).toMatchObject({ status: 'pending' })
    server.behaviour.set('N-1', 'server-error')
    await drainRepeatedly(clock, 1)
    expect((await outboxItems())[0]).toMatchObject({ status: 'failed', error: { status: 500 } })
    expect((await outboxItems())[1]!.status).toBe('sent')
    expect(new Set(server.keysOf('N-1'))).toEqual(new Set([kept.id]))
  })
})
