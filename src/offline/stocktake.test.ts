import 'fake-indexeddb/auto'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { CONTACT, ORG } from '../../tests/offline-rows.ts'
import { ApiError } from '../lib/api.ts'
import { offlineDb, resetOfflineDbForTests } from './db.ts'
import { drain, inFlight } from './outbox.ts'
import {
  deviceId,
  scansMade,
  submitHookScan,
  submitStocktakeScan,
  unsentStocktakeScans,
} from './stocktake.ts'
import { sendItem } from './transport.ts'

const context = { userId: CONTACT, organizationId: ORG, permissions: ['scan__stocktake'] }
const STOCKTAKE = '22222222-2222-4222-8222-222222222222'
const HOOK = '33333333-3333-4333-8333-333333333333'
const KEYCHAIN = '44444444-4444-4444-8444-444444444444'
const counts = { expected: 3, found: 1, misplaced: 0, missing: 2, unexpected: 0 }
const found = { outcome: 'FOUND', keychain: null, hook: null, counts, late: false }

beforeEach(async () => {
  await resetOfflineDbForTests()
})

afterEach(() => {
  vi.unstubAllGlobals()
})

const offline = () => vi.stubGlobal('navigator', { ...navigator, onLine: false })

describe('stocktake scans on the device', () => {
  it('keeps one device id for good', async () => {
    const first = await deviceId()
    expect(first).toMatch(/^[0-9a-f-]{36}$/)
    expect(await deviceId()).toBe(first)
  })

  it('offline, keeps each scan with the next number of this device for that stocktake, sends nothing', async () => {
    const fetch = vi.fn()
    vi.stubGlobal('fetch', fetch)
    offline()
    const scans = []
    for (const value of ['h:abcdefghijklmn23', 'AGC-00001', 'AGC-00001']) {
      scans.push(
        await submitStocktakeScan(context, { stocktakeId: STOCKTAKE, value, hookId: HOOK, label: value }),
      )
    }
    await submitStocktakeScan(context, { stocktakeId: 'other', value: 'AGC-00002', hookId: null, label: 'x' })
    expect(fetch).not.toHaveBeenCalled()
    expect(scans.map((scan) => [scan.queued, scan.result, scan.item.deviceSeq])).toEqual([
      [true, null, 1],
      [true, null, 2],
      [true, null, 3],
    ])
    expect(new Set(scans.map((scan) => scan.item.deviceId))).toEqual(new Set([await deviceId()]))
    expect(await scansMade(STOCKTAKE)).toBe(3)
    expect(await scansMade('other')).toBe(1)
    expect((await unsentStocktakeScans(STOCKTAKE)).map((item) => item.value)).toEqual([
      'h:abcdefghijklmn23',
      'AGC-00001',
      'AGC-00001',
    ])
    expect(inFlight.size).toBe(0)
  })

  it('counts nothing for a stocktake this device never scanned in', async () => {
    expect(await scansMade('never')).toBe(0)
    expect(await unsentStocktakeScans('never')).toEqual([])
  })

  it('keeps a refused scan among the unsent ones, in the order they were made, and no other action', async () => {
    offline()
    const values = ['A', 'B', 'C', 'D', 'E', 'F']
    const made = []
    for (const value of values) {
      made.push(
        await submitStocktakeScan(context, { stocktakeId: STOCKTAKE, value, hookId: null, label: value }),
      )
    }
    await offlineDb().outbox.add({
      ...made[0]!.item,
      id: crypto.randomUUID(),
      kind: 'scan',
      stocktakeId: undefined,
      seq: 1,
    })
    await offlineDb().outbox.update(made[2]!.item.id, { status: 'failed' })
    await offlineDb().outbox.update(made[4]!.item.id, { status: 'sent' })
    expect((await unsentStocktakeScans(STOCKTAKE)).map((item) => item.value)).toEqual([
      'A',
      'B',
      'C',
      'D',
      'F',
    ])
  })

  it('online, sends a new scan once even when the outbox drains meanwhile', async () => {
    let answer: (response: Response) => void = () => {}
    const fetch = vi.fn(() => new Promise<Response>((resolve) => (answer = resolve)))
    vi.stubGlobal('fetch', fetch)
    const pending = submitStocktakeScan(context, {
      stocktakeId: STOCKTAKE,
      value: 'A',
      hookId: null,
      label: 'A',
    })
    await vi.waitFor(() => expect(fetch).toHaveBeenCalledTimes(1))
    const drained = await drain((item) => sendItem(item, true), { userId: CONTACT })
    expect(drained.sent).toBe(0)
    answer(Response.json(found))
    expect((await pending).queued).toBe(false)
    expect(fetch).toHaveBeenCalledTimes(1)
  })

  it('online, sends a hook scan once even when the outbox drains meanwhile', async () => {
    let answer: (response: Response) => void = () => {}
    const fetch = vi.fn(() => new Promise<Response>((resolve) => (answer = resolve)))
    vi.stubGlobal('fetch', fetch)
    const pending = submitHookScan(context, {
      keychainId: KEYCHAIN,
      value: 'h:x',
      makeHome: false,
      label: 'Hall',
    })
    await vi.waitFor(() => expect(fetch).toHaveBeenCalledTimes(1))
    expect((await drain((item) => sendItem(item, true), { userId: CONTACT })).sent).toBe(0)
    answer(
      Response.json({
        outcome: 'HOME',
        location: { whereabouts: 'AT_HOME', home: null, seenOn: null, seenAt: null, seenBy: null },
      }),
    )
    expect((await pending).queued).toBe(false)
    expect(fetch).toHaveBeenCalledTimes(1)
  })

  it('online, posts the scan with its device number and hook, and keeps the server’s answer', async () => {
    const fetch = vi.fn(async (_url: string, _init: RequestInit) => Response.json(found))
    vi.stubGlobal('fetch', fetch)
    const { item, result, queued } = await submitStocktakeScan(context, {
      stocktakeId: STOCKTAKE,
      value: 'AGC-00001',
      hookId: HOOK,
      label: 'AGC-00001',
    })
    expect([queued, result]).toEqual([false, found])
    const [url, init] = fetch.mock.calls[0]!
    expect(url).toBe(`/api/stocktakes/${STOCKTAKE}/scans`)
    expect(JSON.parse(init.body as string)).toEqual({
      value: 'AGC-00001',
      hookId: HOOK,
      deviceId: await deviceId(),
      deviceSeq: 1,
    })
    expect(init.headers).toMatchObject({ 'Idempotency-Key': item.id, 'X-From-Queue': '0' })
    expect(await offlineDb().outbox.get(item.id)).toMatchObject({ status: 'sent', result: found })
    expect(await unsentStocktakeScans(STOCKTAKE)).toEqual([])
  })

  it('online, a refusal is shown at once and nothing is kept', async () => {
    vi.stubGlobal('fetch', async () =>
      Response.json({ error: { code: 'forbidden', message: 'No.' } }, { status: 403 }),
    )
    await expect(
      submitStocktakeScan(context, { stocktakeId: STOCKTAKE, value: 'x', hookId: null, label: 'x' }),
    ).rejects.toBeInstanceOf(ApiError)
    expect(await offlineDb().outbox.count()).toBe(0)
  })

  it('replays kept scans in order, each once, under the key it was made with', async () => {
    offline()
    const a = await submitStocktakeScan(context, {
      stocktakeId: STOCKTAKE,
      value: 'A',
      hookId: null,
      label: 'A',
    })
    const b = await submitStocktakeScan(context, {
      stocktakeId: STOCKTAKE,
      value: 'B',
      hookId: HOOK,
      label: 'B',
    })
    vi.unstubAllGlobals()
    const fetch = vi.fn(async (_url: string, _init: RequestInit) => Response.json(found))
    vi.stubGlobal('fetch', fetch)
    const report = await drain((item) => sendItem(item, true), { userId: CONTACT })
    expect(report.sent).toBe(2)
    expect(
      fetch.mock.calls.map(([, init]) => (init.headers as Record<string, string>)['Idempotency-Key']),
    ).toEqual([a.item.id, b.item.id])
    expect(fetch.mock.calls.map(([, init]) => JSON.parse(init.body as string).deviceSeq)).toEqual([1, 2])
    expect(await unsentStocktakeScans(STOCKTAKE)).toEqual([])
    expect(await drain((item) => sendItem(item, true), { userId: CONTACT })).toMatchObject({ sent: 0 })
  })
})

describe('putting a returned keychain on its hook', () => {
  it('offline, keeps the hook scan for the keychain; online, posts it with makeHome', async () => {
    offline()
    const kept = await submitHookScan(context, {
      keychainId: KEYCHAIN,
      value: 'h:abcdefghijklmn23',
      makeHome: true,
      label: 'Hall',
    })
    expect(kept).toEqual({ result: null, queued: true })
    vi.unstubAllGlobals()
    const answer = {
      outcome: 'NEW_HOME',
      location: { whereabouts: 'AT_HOME', home: null, seenOn: null, seenAt: null, seenBy: null },
    }
    const fetch = vi.fn(async (_url: string, _init: RequestInit) => Response.json(answer))
    vi.stubGlobal('fetch', fetch)
    await drain((item) => sendItem(item, true), { userId: CONTACT })
    const [url, init] = fetch.mock.calls[0]!
    expect(url).toBe(`/api/keychains/${KEYCHAIN}/hook-scans`)
    expect(JSON.parse(init.body as string)).toEqual({ value: 'h:abcdefghijklmn23', makeHome: true })
  })
})
