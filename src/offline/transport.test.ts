import { afterEach, describe, expect, it, vi } from 'vitest'
import { transfer } from '../../tests/offline-rows.ts'
import type { OutboxItem } from './db.ts'
import { sendItem } from './transport.ts'

/** How one outbox item travels, and which class each answer falls in: sent, refused, server error, no answer. */

const item = (overrides: Partial<OutboxItem> = {}): OutboxItem => ({
  id: '11111111-1111-4111-8111-111111111111',
  seq: 1,
  kind: 'scan',
  userId: 'user-1',
  organizationId: 'org-1',
  value: 'AGC-00042',
  label: 'AGC-00042',
  clientTime: '2026-11-22T09:59:00.000Z',
  status: 'pending',
  attempts: 0,
  nextAttemptAt: 0,
  error: null,
  result: null,
  sentAt: null,
  ...overrides,
})

const unknownScan = { status: 'unknown', scanId: 'scan-1', value: 'AGC-00042' }
const errorBody = (code: string, message: string) => ({ error: { code, message } })

function answer(response: () => Response | Promise<Response>) {
  const fetch = vi.fn(async (_url: string, _init: RequestInit) => response())
  vi.stubGlobal('fetch', fetch)
  return fetch
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('sending an outbox item', () => {
  it('posts a scan to /api/scans with its id as Idempotency-Key, the device time and whether it is queued', async () => {
    const fetch = answer(() => Response.json(unknownScan))
    expect(await sendItem(item(), true)).toEqual({ kind: 'sent', result: unknownScan })
    expect(fetch).toHaveBeenCalledTimes(1)
    const [url, init] = fetch.mock.calls[0]!
    expect(url).toBe('/api/scans')
    expect(init.method).toBe('POST')
    expect(JSON.parse(init.body as string)).toEqual({ value: 'AGC-00042' })
    expect(init.headers).toMatchObject({
      'Idempotency-Key': '11111111-1111-4111-8111-111111111111',
      'X-Client-Time': '2026-11-22T09:59:00.000Z',
      'X-From-Queue': '1',
    })
    expect(init.signal).toBeInstanceOf(AbortSignal)
  })

  it('marks the first, immediate try as not from the queue and passes the caller’s signal', async () => {
    const fetch = answer(() => Response.json(unknownScan))
    const signal = new AbortController().signal
    await sendItem(item(), false, signal)
    const [, init] = fetch.mock.calls[0]!
    expect(init.headers).toMatchObject({ 'X-From-Queue': '0' })
    expect(init.signal).toBe(signal)
  })

  it('posts a pickup to its transfer, without a body, and answers the transfer', async () => {
    const done = transfer('tr-9', { status: 'TRANSFERRED', next: null, refusal: 'not_member' })
    const fetch = answer(() => Response.json(done))
    const outcome = await sendItem(item({ kind: 'pickup', value: 'tr-9' }), true)
    expect(outcome).toEqual({ kind: 'sent', result: done })
    const [url, init] = fetch.mock.calls[0]!
    expect(url).toBe('/api/transfers/tr-9/pickups')
    expect(init.method).toBe('POST')
    expect(init.body).toBeUndefined()
    expect(init.headers).toMatchObject({ 'Idempotency-Key': item().id, 'X-From-Queue': '1' })
  })

  it('posts a handover’s two signed codes to /api/handovers and answers the handover', async () => {
    const pair = { offer: 'TRH1|O|…', acceptance: 'TRH1|A|…' }
    const person = { id: 'u', email: 'u@example.com', firstName: 'U', lastName: 'V' }
    const handover = {
      id: 'x'.repeat(43),
      status: 'APPLIED',
      reason: null,
      keychain: { id: 'kc-1', name: 'Cave' },
      giver: person,
      receiver: person,
      giverDeviceId: 'd1',
      receiverDeviceId: 'd2',
      offeredAt: '2026-11-22T09:58:00.000Z',
      acceptedAt: '2026-11-22T09:59:00.000Z',
      receivedAt: '2026-11-22T10:00:00.000Z',
      sentBy: person,
    }
    const fetch = answer(() => Response.json(handover, { status: 201 }))
    const outcome = await sendItem(item({ kind: 'handover', value: 'x'.repeat(43), handover: pair }), true)
    expect(outcome).toEqual({ kind: 'sent', result: handover })
    const [url, init] = fetch.mock.calls[0]!
    expect(url).toBe('/api/handovers')
    expect(init.method).toBe('POST')
    expect(JSON.parse(init.body as string)).toEqual(pair)
    expect(init.headers).toMatchObject({ 'Idempotency-Key': item().id, 'X-From-Queue': '1' })
  })

  it('keeps the reason a refusal gives', async () => {
    answer(() =>
      Response.json(
        { error: { code: 'handover_refused', message: 'No.', reason: 'conflict' } },
        { status: 409 },
      ),
    )
    expect(
      await sendItem(item({ kind: 'handover', handover: { offer: 'o', acceptance: 'a' } }), true),
    ).toEqual({
      kind: 'refused',
      status: 409,
      code: 'handover_refused',
      message: 'No.',
      reason: 'conflict',
    })
  })

  it('treats no network at all as no answer (tried again later)', async () => {
    answer(() => Promise.reject(new TypeError('Failed to fetch')))
    expect(await sendItem(item(), true)).toEqual({ kind: 'unreachable' })
  })

  it('treats a request given up (timeout) as no answer', async () => {
    const controller = new AbortController()
    answer(() => {
      controller.abort(new DOMException('The operation timed out.', 'TimeoutError'))
      return Promise.reject(controller.signal.reason)
    })
    expect(await sendItem(item(), true, controller.signal)).toEqual({ kind: 'unreachable' })
  })

  it('treats an answer that does not match the contract as no answer, not as sent', async () => {
    answer(() => Response.json({ status: 'resolved' }))
    expect(await sendItem(item(), true)).toEqual({ kind: 'unreachable' })
  })

  it.each([
    [401, 'unauthenticated'],
    [408, 'request_timeout'],
    [425, 'too_early'],
    [429, 'rate_limited'],
  ])('treats %i ("not now") as no answer: tried again later', async (status, code) => {
    const fetch = answer(() => Response.json(errorBody(code, 'Later.'), { status }))
    expect(await sendItem(item(), true)).toEqual({ kind: 'unreachable' })
    // A POST is not repeated by the API client: the outbox decides when to try again.
    expect(fetch).toHaveBeenCalledTimes(1)
  })

  it.each([
    [400, 'validation_failed'],
    [402, 'subscription_required'],
    [403, 'forbidden'],
    [404, 'not_found'],
    [409, 'pickup_refused'],
    [422, 'unprocessable'],
    [499, 'client_closed'],
  ])(
    'keeps %i as a refusal with the server’s code and message (waiting will not change it)',
    async (status, code) => {
      answer(() => Response.json(errorBody(code, 'No.'), { status }))
      expect(await sendItem(item(), true)).toEqual({ kind: 'refused', status, code, message: 'No.' })
    },
  )

  it.each([500, 502, 503, 504])('keeps %i as a server error with its code and message', async (status) => {
    answer(() => Response.json(errorBody('internal_error', 'Broken.'), { status }))
    expect(await sendItem(item(), true)).toEqual({
      kind: 'serverError',
      status,
      code: 'internal_error',
      message: 'Broken.',
    })
  })
})
