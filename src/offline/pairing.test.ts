import 'fake-indexeddb/auto'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ADMIN, keychain, keyOf, NOW, ORG, tag } from '../../tests/offline-rows.ts'
import { offlineDb, resetOfflineDbForTests } from './db.ts'
import { asMirroredTag, claimMirror, mirroredKeychain, mirrorKeychain } from './mirror.ts'
import { drain, inFlight } from './outbox.ts'
import { submitPairing } from './pairing.ts'
import { settlePairing } from './pairing-mirror.ts'
import { resolveScanOffline } from './scan-offline.ts'
import { putTags } from './tag-store.ts'
import { sendItem } from './transport.ts'

const context = {
  userId: ADMIN,
  organizationId: ORG,
  permissions: ['read__tag', 'create__keychain', 'create__key'],
}
const FREE = tag('AGC-00050', 'freefreefreefreefree', null)

beforeEach(async () => {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(NOW)
  await resetOfflineDbForTests()
  await claimMirror(ADMIN)
  await putTags(offlineDb(), [asMirroredTag(ORG, FREE)])
})

afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

const scanned = () => resolveScanOffline({ ...context, value: FREE.code, scanId: 's' })

describe('pairing a scanned free tag', () => {
  it('online: one request creates the keychain with the tag as its first key, mirrored at once', async () => {
    const made = keychain('kc-new', { name: 'Cave 7', keys: [{ ...keyOf('AGC-00050', FREE), id: 'key-1' }] })
    const fetch = vi.fn(async () => Response.json(made, { status: 201 }))
    vi.stubGlobal('fetch', fetch)
    const paired = await submitPairing(context, { kind: 'create', tag: FREE, name: 'Cave 7' })
    expect(paired).toEqual({ keychainId: 'kc-new', keychainName: 'Cave 7', queued: false })
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit]
    expect(url).toMatch(/\/keychains$/)
    expect(JSON.parse(String(init.body))).toEqual({
      name: 'Cave 7',
      firstKey: { type: 'TAG', name: 'AGC-00050', tagId: FREE.id },
    })
    expect(new Headers(init.headers).get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/)
    expect((await mirroredKeychain('kc-new'))?.name).toBe('Cave 7')
    expect(await scanned()).toMatchObject({ keychain: { id: 'kc-new', name: 'Cave 7' } })
    expect(await offlineDb().outbox.toArray()).toMatchObject([{ kind: 'pairCreate', status: 'sent' }])
  })

  it('online, refused (tag taken): says why and keeps nothing', async () => {
    const refusal = { error: { code: 'tag_taken', message: 'This tag is already on a key.' } }
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json(refusal, { status: 409 })),
    )
    await expect(submitPairing(context, { kind: 'create', tag: FREE, name: 'X' })).rejects.toMatchObject({
      status: 409,
      code: 'tag_taken',
    })
    expect(await offlineDb().outbox.count()).toBe(0)
    expect(await offlineDb().keychains.count()).toBe(0)
  })

  it('offline: queued, shown at once as waiting, then replaced by the server’s answer on replay', async () => {
    vi.stubGlobal('navigator', { ...navigator, onLine: false })
    const paired = await submitPairing(context, { kind: 'create', tag: FREE, name: 'Garage' })
    expect(paired.queued).toBe(true)
    const [item] = await offlineDb().outbox.toArray()
    expect(item).toMatchObject({ kind: 'pairCreate', status: 'pending', name: 'Garage', value: FREE.id })
    expect(await offlineDb().keychains.get(item!.id)).toMatchObject({
      waiting: true,
      detail: { name: 'Garage' },
    })
    expect(await scanned()).toMatchObject({ keychain: { id: item!.id, name: 'Garage' } })
    // Back online: the outbox replays it once, with the same key.
    vi.stubGlobal('navigator', { ...navigator, onLine: true })
    const made = keychain('kc-real', { name: 'Garage', keys: [{ ...keyOf('AGC-00050', FREE), id: 'key-r' }] })
    const fetch = vi.fn(async () => Response.json(made, { status: 201 }))
    vi.stubGlobal('fetch', fetch)
    const report = await drain(
      async (each) => {
        const outcome = await sendItem(each, true)
        await settlePairing(each, outcome)
        return outcome
      },
      { userId: ADMIN },
    )
    expect(report.sent).toBe(1)
    expect(fetch).toHaveBeenCalledTimes(1)
    const init = (fetch.mock.calls[0] as unknown as [string, RequestInit])[1]
    expect(new Headers(init.headers).get('idempotency-key')).toBe(item!.id)
    expect(new Headers(init.headers).get('x-from-queue')).toBe('1')
    expect(await offlineDb().keychains.get(item!.id)).toBeUndefined()
    expect((await mirroredKeychain('kc-real'))?.keys[0]?.tag?.id).toBe(FREE.id)
    expect(await scanned()).toMatchObject({ keychain: { id: 'kc-real' } })
  })

  it('offline attach: the key shows on the mirrored keychain; a refusal on replay takes it back and frees the tag', async () => {
    await mirrorKeychain(keychain('kc-cave', { name: 'Cave', keys: [] }))
    vi.stubGlobal('navigator', { ...navigator, onLine: false })
    await submitPairing(context, { kind: 'attach', tag: FREE, keychain: { id: 'kc-cave', name: 'Cave' } })
    expect((await mirroredKeychain('kc-cave'))?.keys.map((key) => key.tag?.code)).toEqual(['AGC-00050'])
    vi.stubGlobal('navigator', { ...navigator, onLine: true })
    const refusal = { error: { code: 'tag_taken', message: 'This tag is already on a key.' } }
    const fetch = vi.fn(async () => Response.json(refusal, { status: 409 }))
    vi.stubGlobal('fetch', fetch)
    const report = await drain(
      async (each) => {
        const outcome = await sendItem(each, true)
        await settlePairing(each, outcome)
        return outcome
      },
      { userId: ADMIN },
    )
    expect(report.refused).toBe(1)
    expect(String((fetch.mock.calls[0] as unknown as [string])[0])).toMatch(/\/keychains\/kc-cave\/keys$/)
    expect(await offlineDb().outbox.toArray()).toMatchObject([
      { kind: 'pairAttach', status: 'failed', error: { code: 'tag_taken' } },
    ])
    expect((await mirroredKeychain('kc-cave'))?.keys).toEqual([])
    expect(await scanned()).toMatchObject({ status: 'resolved', keychain: null })
  })

  it('online attach: one request puts the key, named by the tag’s code, on the keychain chosen', async () => {
    await mirrorKeychain(keychain('kc-cave', { name: 'Cave', keys: [] }))
    const key = keyOf('AGC-00050', FREE)
    const fetch = vi.fn(async () => Response.json(key, { status: 201 }))
    vi.stubGlobal('fetch', fetch)
    const paired = await submitPairing(context, {
      kind: 'attach',
      tag: FREE,
      keychain: { id: 'kc-cave', name: 'Cave' },
    })
    expect(paired).toEqual({ keychainId: 'kc-cave', keychainName: 'Cave', queued: false })
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit]
    expect(url).toMatch(/\/keychains\/kc-cave\/keys$/)
    expect(JSON.parse(String(init.body))).toMatchObject({ name: 'AGC-00050', type: 'TAG' })
    expect(await offlineDb().outbox.toArray()).toMatchObject([
      { kind: 'pairAttach', status: 'sent', label: 'AGC-00050 → Cave', keychainId: 'kc-cave' },
    ])
    expect(await scanned()).toMatchObject({ keychain: { id: 'kc-cave', name: 'Cave' } })
  })

  it('offline: answers what it made, waiting, and labels each pairing for the sync panel', async () => {
    await mirrorKeychain(keychain('kc-cave', { name: 'Cave', keys: [] }))
    vi.stubGlobal('navigator', { ...navigator, onLine: false })
    const made = await submitPairing(context, { kind: 'create', tag: FREE, name: 'Garage' })
    const [created] = await offlineDb().outbox.toArray()
    expect(made).toEqual({ keychainId: created!.id, keychainName: 'Garage', queued: true })
    expect(created).toMatchObject({
      label: 'AGC-00050 → Garage',
      keyName: 'AGC-00050',
      tagPublicId: FREE.publicId,
    })
    const other = tag('AGC-00051', 'otherotherotherother', null)
    await putTags(offlineDb(), [asMirroredTag(ORG, other)])
    const attached = await submitPairing(context, {
      kind: 'attach',
      tag: other,
      keychain: { id: 'kc-cave', name: 'Cave' },
    })
    expect(attached).toEqual({ keychainId: 'kc-cave', keychainName: 'Cave', queued: true })
    const items = await offlineDb().outbox.orderBy('seq').toArray()
    expect(items.map((item) => item.label)).toEqual(['AGC-00050 → Garage', 'AGC-00051 → Cave'])
  })

  it('online: while the first try is under way, the worker’s drain leaves the pairing alone (sent once)', async () => {
    const made = keychain('kc-once', { name: 'Cave 9', keys: [{ ...keyOf('AGC-00050', FREE), id: 'key-9' }] })
    const takenByDrain: string[] = []
    const fetch = vi.fn(async () => {
      const report = await drain(
        async (each) => {
          takenByDrain.push(each.id)
          return { kind: 'unreachable' as const }
        },
        { userId: ADMIN },
      )
      expect(report.sent + report.refused).toBe(0)
      return Response.json(made, { status: 201 })
    })
    vi.stubGlobal('fetch', fetch)
    const paired = await submitPairing(context, { kind: 'create', tag: FREE, name: 'Cave 9' })
    expect(paired).toEqual({ keychainId: 'kc-once', keychainName: 'Cave 9', queued: false })
    expect(takenByDrain).toEqual([])
    expect(fetch).toHaveBeenCalledTimes(1)
    expect(inFlight.size).toBe(0)
    expect(await offlineDb().outbox.toArray()).toMatchObject([{ kind: 'pairCreate', status: 'sent' }])
  })

  it('online, refused: the server’s status, code and message reach the screen', async () => {
    const refusal = { error: { code: 'validation_failed', message: 'The name is too long.' } }
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json(refusal, { status: 400 })),
    )
    await expect(submitPairing(context, { kind: 'create', tag: FREE, name: 'X' })).rejects.toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'The name is too long.',
    })
  })
})
