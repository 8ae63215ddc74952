import 'fake-indexeddb/auto'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { CAVE_TAG, CONTACT, NOW, ORG, transfer } from '../../tests/offline-rows.ts'
import { offlineDb, resetOfflineDbForTests } from './db.ts'
import { submitExtension, submitScan } from './field.ts'
import { asMirroredTag, claimMirror, mirroredTransfer, mirrorTransfers } from './mirror.ts'
import { drain, inFlight } from './outbox.ts'
import { putTags } from './tag-store.ts'
import { sendItem } from './transport.ts'

const context = { userId: CONTACT, organizationId: ORG, permissions: ['pickup__transfer', 'create__scan'] }

beforeEach(async () => {
  // Inside the mirrored transfer's window (only the clock is faked: IndexedDB's timers run).
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(NOW)
  await resetOfflineDbForTests()
  await claimMirror(CONTACT)
  await mirrorTransfers([transfer('tr-1')], CONTACT)
})

afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

describe('a scan in the field', () => {
  it('without any network, is kept for later and answered from the mirror at once, with no request', async () => {
    const fetch = vi.fn()
    vi.stubGlobal('fetch', fetch)
    vi.stubGlobal('navigator', { ...navigator, onLine: false })
    const { result, queued } = await submitScan(context, 'agc-00042')
    expect(fetch).not.toHaveBeenCalled()
    expect(queued).toBe(true)
    expect(result).toMatchObject({
      status: 'resolved',
      keychain: { id: 'kc-cave' },
      transfer: { id: 'tr-1' },
    })
    const [item] = await offlineDb().outbox.toArray()
    expect(item).toMatchObject({ kind: 'scan', value: 'agc-00042', status: 'pending', attempts: 0 })
    // Not held by the first try: the worker sends it when the network is back.
    expect(inFlight.has(item!.id)).toBe(false)
  })

  it('with a network that does not answer, is kept for later and answered from the mirror', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    )
    const { result, queued } = await submitScan(context, CAVE_TAG.url)
    expect(queued).toBe(true)
    expect(result.status).toBe('resolved')
    const [item] = await offlineDb().outbox.toArray()
    expect(item).toMatchObject({ status: 'pending', attempts: 1 })
    expect(inFlight.size).toBe(0)
  })

  it('online, shows the server’s answer and mirrors the transfer it carries', async () => {
    const picked = transfer('tr-1', { status: 'TRANSFERRED', next: null, refusal: 'own_return' })
    const answer = {
      status: 'resolved',
      scanId: 'x',
      tag: CAVE_TAG,
      key: null,
      keychain: { id: 'kc-cave', name: 'Cave', custodian: null },
      actions: ['pickup__transfer'],
      transfer: picked,
    }
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json(answer)),
    )
    const { result, queued } = await submitScan(context, 'AGC-00042')
    expect(queued).toBe(false)
    expect(result).toMatchObject({ status: 'resolved', transfer: { status: 'TRANSFERRED' } })
    expect((await mirroredTransfer('tr-1'))?.status).toBe('TRANSFERRED')
    expect(await offlineDb().outbox.toArray()).toMatchObject([{ status: 'sent' }])
  })

  it('refused online, says why and keeps nothing', async () => {
    const refusal = { error: { code: 'validation_failed', message: 'Value is required.' } }
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json(refusal, { status: 400 })),
    )
    await expect(submitScan(context, 'AGC-00042')).rejects.toMatchObject({
      status: 400,
      code: 'validation_failed',
    })
    expect(await offlineDb().outbox.count()).toBe(0)
  })

  it('of a tag the mirror knows only by its bucket neighbours answers unknown offline', async () => {
    await putTags(offlineDb(), [
      asMirroredTag(ORG, { ...CAVE_TAG, id: 'tag-2', code: 'AGC-00043', publicId: 'bbbbbbbbbbbbbbbbbbbb' }),
    ])
    vi.stubGlobal('navigator', { ...navigator, onLine: false })
    const { result } = await submitScan(context, 'AGC-00044')
    expect(result).toMatchObject({ status: 'unknown', value: 'AGC-00044' })
  })
})

describe('a request for more time', () => {
  const held = () => transfer('tr-1', { status: 'TRANSFERRED', next: null, refusal: 'own_return' })

  it('without an answer, is kept with its date, shows as pending here, and is sent as asked once back', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    )
    const { transfer: waiting, queued } = await submitExtension(context, held(), '2026-11-30')
    expect(queued).toBe(true)
    expect(waiting.extension).toMatchObject({
      status: 'PENDING',
      toDate: '2026-11-30',
      previousToDate: held().toDate,
    })
    expect((await mirroredTransfer('tr-1'))?.extension?.status).toBe('PENDING')
    const [item] = await offlineDb().outbox.toArray()
    expect(item).toMatchObject({ kind: 'extension', value: 'tr-1', toDate: '2026-11-30', status: 'pending' })

    const answered = { ...held(), extension: { ...waiting.extension!, id: 'ext-1' } }
    const fetch = vi.fn(async (_url: string, _init?: RequestInit) => Response.json(answered, { status: 201 }))
    vi.stubGlobal('fetch', fetch)
    const report = await drain((each) => sendItem(each, true), { userId: CONTACT, force: true })
    expect(report.sent).toBe(1)
    const [url, init] = fetch.mock.calls[0]!
    expect(String(url)).toContain('/api/transfers/tr-1/extensions')
    expect(JSON.parse(String(init?.body))).toEqual({ toDate: '2026-11-30' })
    expect(new Headers(init?.headers).get('idempotency-key')).toBe(item!.id)
    expect(new Headers(init?.headers).get('x-from-queue')).toBe('1')
  })

  it('refused online, says why and keeps nothing', async () => {
    const refusal = { error: { code: 'extension_refused', reason: 'pending', message: 'A request waits.' } }
    // While the first try is under way, the item is the caller's: no drain of the worker takes it meanwhile.
    const heldMeanwhile: number[] = []
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        heldMeanwhile.push(inFlight.size)
        return Response.json(refusal, { status: 409 })
      }),
    )
    await expect(submitExtension(context, held(), '2026-11-30')).rejects.toMatchObject({
      status: 409,
      code: 'extension_refused',
    })
    expect(heldMeanwhile).toEqual([1])
    expect(inFlight.size).toBe(0)
    expect(await offlineDb().outbox.count()).toBe(0)
  })
})
