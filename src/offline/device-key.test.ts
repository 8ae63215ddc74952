import 'fake-indexeddb/auto'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Device } from '../../contract/devices.ts'
import { fingerprintOf } from '../../contract/handover-codes.ts'
import type { MirroredDeviceKey } from '../../contract/sync.ts'
import { ADMIN, adminProfile, CONTACT, ORG } from '../../tests/offline-rows.ts'
import { page } from '../../tests/sync-pages.ts'
import { applySyncPage, type SyncState } from './apply.ts'
import { offlineDb, resetOfflineDbForTests, withDb } from './db.ts'
import {
  DEVICE_KEY_RENEWAL_MS,
  deviceName,
  ensureDeviceKey,
  forgetRevokedDevice,
  signingKey,
} from './device-key.ts'
import { claimMirror } from './mirror.ts'

const DAY = 24 * 60 * 60 * 1000
const CHROME_ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36'

type Registration = { id: string; publicKey: string; name: string }

/** The server: `/profile` answers `session`; `POST /devices` answers `device` (registered now, for 180 days). */
function server(
  session: string,
  device: (body: Registration) => Response | Promise<Response> = (body) => Response.json(registered(body)),
) {
  const fetch = vi.fn(async (url: string, init?: RequestInit) => {
    if (url === '/api/profile') return Response.json(adminProfile({ id: session }))
    if (url === '/api/devices' && init?.method === 'POST')
      return device(JSON.parse(init.body as string) as Registration)
    return Response.json({ error: { code: 'not_found', message: 'No.' } }, { status: 404 })
  })
  vi.stubGlobal('fetch', fetch)
  return fetch
}

const registered = (body: Registration, overrides: Partial<Device> = {}): Device => ({
  id: body.id,
  name: body.name,
  fingerprint: 'ABCDEFGH',
  registeredAt: new Date().toISOString(),
  expiresAt: new Date(Date.now() + 180 * DAY).toISOString(),
  revokedAt: null,
  lastHandoverAt: null,
  ...overrides,
})

const registrations = (fetch: ReturnType<typeof server>) =>
  fetch.mock.calls.filter(([url, init]) => url === '/api/devices' && init?.method === 'POST')

const online = () => vi.stubGlobal('navigator', { onLine: true, userAgent: CHROME_ANDROID })
const offline = () => vi.stubGlobal('navigator', { onLine: false, userAgent: CHROME_ANDROID })

const stored = (userId: string) => withDb((db) => db.deviceKeyPairs.get(userId))

/** A sync page's entry for a device key. */
const mirrored = (deviceId: string, userId: string, revokedAt: string | null = null): MirroredDeviceKey => ({
  id: deviceId,
  userId,
  person: { id: userId, email: 'a@example.com', firstName: 'A', lastName: 'B' },
  publicKey: 'x'.repeat(87),
  fingerprint: 'ABCDEFGH',
  expiresAt: new Date(Date.now() + 100 * DAY).toISOString(),
  revokedAt,
})

let synced: SyncState | null = null
const applyKeys = async (keys: MirroredDeviceKey[]) => {
  synced = await withDb((db) =>
    applySyncPage(db, {
      page: page({ deviceKeys: keys }),
      userId: ADMIN,
      expected: synced,
      requestedAt: new Date().toISOString(),
      readsTags: true,
    }),
  )
}

beforeEach(async () => {
  await resetOfflineDbForTests()
  await claimMirror(ADMIN)
  synced = null
})

afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

describe('the device key', () => {
  it('is made once per user, its private half not extractable, and sent nowhere offline', async () => {
    offline()
    const fetch = server(ADMIN)
    const first = await ensureDeviceKey(ADMIN)
    expect(first).toEqual({
      deviceId: expect.stringMatching(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      ),
      publicKey: expect.stringMatching(/^[A-Za-z0-9_-]{87}$/),
      fingerprint: await fingerprintOf(first.publicKey),
      registered: false,
      revoked: false,
    })
    expect(await ensureDeviceKey(ADMIN)).toEqual(first)
    const key = await stored(ADMIN)
    expect(key?.privateKey).toBeInstanceOf(CryptoKey)
    expect(key?.privateKey?.extractable).toBe(false)
    expect(key?.privateKey?.usages).toEqual(['sign'])
    expect(key?.privateKey?.algorithm).toMatchObject({ name: 'ECDSA', namedCurve: 'P-256' })
    expect(fetch).not.toHaveBeenCalled()
    // Another user of the same device has a key of their own.
    expect((await ensureDeviceKey(CONTACT)).deviceId).not.toBe(first.deviceId)
    expect(await withDb((db) => db.deviceKeyPairs.count())).toBe(2)
  })

  it('makes one key for calls at the same time, in this tab or after another tab made one', async () => {
    offline()
    const [a, b] = await Promise.all([ensureDeviceKey(ADMIN), ensureDeviceKey(ADMIN)])
    expect(a).toEqual(b)
    // Another tab's key, written while this one made its own: the stored one wins.
    const theirs = { ...(await stored(ADMIN))!, deviceId: crypto.randomUUID() }
    await withDb((db) => db.deviceKeyPairs.put({ ...theirs, privateKey: null }))
    const put = offlineDb().deviceKeyPairs.put.bind(offlineDb().deviceKeyPairs)
    const revokedWhileMaking = async () => {
      await put(theirs)
      return { ...theirs, privateKey: null }
    }
    vi.spyOn(offlineDb().deviceKeyPairs, 'get').mockImplementationOnce(revokedWhileMaking as never)
    expect((await ensureDeviceKey(ADMIN)).deviceId).toBe(theirs.deviceId)
  })

  it('is registered once online, with its id, public key and a readable name, by its own user’s session', async () => {
    online()
    const fetch = server(ADMIN)
    const identity = await ensureDeviceKey(ADMIN)
    expect(identity.registered).toBe(true)
    expect(await ensureDeviceKey(ADMIN)).toEqual(identity)
    expect(registrations(fetch)).toHaveLength(1)
    const [, init] = registrations(fetch)[0]!
    expect(JSON.parse(init!.body as string)).toEqual({
      id: identity.deviceId,
      publicKey: identity.publicKey,
      name: 'Chrome · Android',
    })
    const key = await stored(ADMIN)
    expect(key).toMatchObject({ registeredAt: expect.any(String), expiresAt: expect.any(String) })
    expect(key?.replacesRevoked).toBeUndefined()
  })

  it('makes no new key pair while one is kept', async () => {
    offline()
    const generate = vi.spyOn(crypto.subtle, 'generateKey')
    await ensureDeviceKey(ADMIN)
    await ensureDeviceKey(ADMIN)
    expect(generate).toHaveBeenCalledTimes(1)
  })

  it('registers once for calls at the same time online', async () => {
    online()
    const fetch = server(ADMIN)
    const [a, b] = await Promise.all([ensureDeviceKey(ADMIN), ensureDeviceKey(ADMIN)])
    expect(a).toEqual(b)
    expect(registrations(fetch)).toHaveLength(1)
  })

  it('gives up a registration that does not answer in time (both its requests carry a deadline)', async () => {
    online()
    const fetch = server(ADMIN)
    await ensureDeviceKey(ADMIN)
    expect(fetch.mock.calls.map(([url, init]) => [url, init?.signal instanceof AbortSignal])).toEqual([
      ['/api/profile', true],
      ['/api/devices', true],
    ])
  })

  it('is not registered under another account’s session (another tab signed someone else in)', async () => {
    online()
    const warn = vi.spyOn(console, 'warn')
    const fetch = server(CONTACT)
    expect((await ensureDeviceKey(ADMIN)).registered).toBe(false)
    expect(registrations(fetch)).toHaveLength(0)
    expect(warn).not.toHaveBeenCalled()
  })

  it('is not renewed under another account’s session', async () => {
    online()
    const soon = new Date(Date.now() + DAY).toISOString()
    server(ADMIN, (body) => Response.json(registered(body, { expiresAt: soon })))
    const first = await ensureDeviceKey(ADMIN)
    const warn = vi.spyOn(console, 'warn')
    const fetch = server(CONTACT)
    expect(await ensureDeviceKey(ADMIN)).toEqual(first)
    expect(registrations(fetch)).toHaveLength(0)
    expect(warn).not.toHaveBeenCalled()
  })

  it('tries again on the next call when the registration got no answer or failed', async () => {
    online()
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    let fetch = server(ADMIN, () =>
      Response.json({ error: { code: 'x', message: 'Down.' } }, { status: 503 }),
    )
    const first = await ensureDeviceKey(ADMIN)
    expect(first.registered).toBe(false)
    expect(registrations(fetch)).toHaveLength(1)
    expect(console.warn).toHaveBeenCalledWith(
      'Device key registration failed',
      expect.objectContaining({ status: 503 }),
    )
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch')
      }),
    )
    expect((await ensureDeviceKey(ADMIN)).registered).toBe(false)
    fetch = server(ADMIN)
    const again = await ensureDeviceKey(ADMIN)
    expect(again).toEqual({ ...first, registered: true })
    expect(registrations(fetch)).toHaveLength(1)
  })

  it('is replaced online by a new registered key when it expires within 14 days, and kept until then', async () => {
    online()
    let fetch = server(ADMIN, (body) =>
      Response.json(
        registered(body, { expiresAt: new Date(Date.now() + DEVICE_KEY_RENEWAL_MS + DAY).toISOString() }),
      ),
    )
    const first = await ensureDeviceKey(ADMIN)
    expect(await ensureDeviceKey(ADMIN)).toEqual(first)
    expect(registrations(fetch)).toHaveLength(1)

    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + 2 * DAY)
    // Offline: the old key signs on.
    offline()
    fetch = server(ADMIN)
    expect(await ensureDeviceKey(ADMIN)).toEqual(first)
    // Online, a renewal that fails changes nothing.
    online()
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    fetch = server(ADMIN, () => Response.json({ error: { code: 'x', message: 'Down.' } }, { status: 503 }))
    expect(await ensureDeviceKey(ADMIN)).toEqual(first)
    fetch = server(ADMIN)
    const renewed = await ensureDeviceKey(ADMIN)
    vi.useRealTimers()
    expect(renewed.deviceId).not.toBe(first.deviceId)
    expect(renewed.publicKey).not.toBe(first.publicKey)
    expect(renewed).toMatchObject({ registered: true, revoked: false })
    const [, init] = registrations(fetch)[0]!
    expect(JSON.parse(init!.body as string)).toMatchObject({ id: renewed.deviceId })
  })

  it('is renewed exactly at 14 days before it expires, not a moment sooner', async () => {
    online()
    const expiresAt = Date.now() + 20 * DAY
    server(ADMIN, (body) => Response.json(registered(body, { expiresAt: new Date(expiresAt).toISOString() })))
    const first = await ensureDeviceKey(ADMIN)
    vi.useFakeTimers({ toFake: ['Date'] })
    expect(DEVICE_KEY_RENEWAL_MS).toBe(14 * DAY)
    vi.setSystemTime(expiresAt - 14 * DAY - 1)
    expect((await ensureDeviceKey(ADMIN)).deviceId).toBe(first.deviceId)
    vi.setSystemTime(expiresAt - 14 * DAY)
    expect((await ensureDeviceKey(ADMIN)).deviceId).not.toBe(first.deviceId)
    vi.useRealTimers()
  })

  it('keeps another tab’s key when that tab renewed or registered meanwhile', async () => {
    online()
    const other = crypto.randomUUID()
    server(ADMIN, async (body) => {
      // Another tab writes its own key while this registration is on its way.
      await withDb(async (db) => {
        const key = await db.deviceKeyPairs.get(ADMIN)
        await db.deviceKeyPairs.put({ ...key!, deviceId: other })
      })
      return Response.json(registered(body))
    })
    expect((await ensureDeviceKey(ADMIN)).deviceId).toBe(other)
  })

  it('is dropped when the sync feed shows it revoked: a new key is made, registered next time online', async () => {
    offline()
    const first = await ensureDeviceKey(ADMIN)
    // Someone else's revoked key, or this one active: nothing changes.
    await applyKeys([
      mirrored(crypto.randomUUID(), ADMIN, new Date().toISOString()),
      mirrored(first.deviceId, ADMIN),
    ])
    expect((await stored(ADMIN))?.privateKey).toBeInstanceOf(CryptoKey)
    await applyKeys([
      mirrored(crypto.randomUUID(), CONTACT),
      mirrored(first.deviceId, ADMIN, new Date().toISOString()),
    ])
    expect((await stored(ADMIN))?.privateKey).toBeNull()
    expect(await withDb((db) => signingKey(db, ADMIN, Date.now()))).toBeUndefined()

    const next = await ensureDeviceKey(ADMIN)
    expect(next.deviceId).not.toBe(first.deviceId)
    expect(next).toMatchObject({ registered: false, revoked: true })
    expect(await ensureDeviceKey(ADMIN)).toEqual(next)

    online()
    const fetch = server(ADMIN)
    expect(await ensureDeviceKey(ADMIN)).toEqual({ ...next, registered: true, revoked: false })
    expect(registrations(fetch)).toHaveLength(1)
  })

  it('keeps the keys of the last page only, marked with its organization', async () => {
    const a = mirrored(crypto.randomUUID(), CONTACT)
    const b = mirrored(crypto.randomUUID(), CONTACT)
    await applyKeys([a])
    await applyKeys([b])
    expect(await withDb((db) => db.deviceKeys.toArray())).toEqual([{ ...b, organizationId: ORG }])
  })

  it('is dropped when the server answers its registration as revoked, and a new one is made', async () => {
    online()
    server(ADMIN, (body) => Response.json(registered(body, { revokedAt: new Date().toISOString() })))
    const first = await ensureDeviceKey(ADMIN)
    expect(first).toMatchObject({ registered: false, revoked: true })
    const key = await stored(ADMIN)
    expect(key?.privateKey).toBeInstanceOf(CryptoKey)
    expect(key?.registeredAt).toBeNull()
  })

  it('is dropped when the person revokes this device from the profile', async () => {
    offline()
    const mine = await ensureDeviceKey(ADMIN)
    await forgetRevokedDevice(crypto.randomUUID())
    expect((await stored(ADMIN))?.privateKey).toBeInstanceOf(CryptoKey)
    await forgetRevokedDevice(mine.deviceId)
    expect((await stored(ADMIN))?.privateKey).toBeNull()
    expect((await ensureDeviceKey(ADMIN)).deviceId).not.toBe(mine.deviceId)
  })

  it('signs only while registered and not expired', async () => {
    offline()
    await ensureDeviceKey(ADMIN)
    expect(await withDb((db) => signingKey(db, ADMIN, Date.now()))).toBeUndefined()
    online()
    server(ADMIN, (body) =>
      Response.json(registered(body, { expiresAt: new Date(Date.now() + 100 * DAY).toISOString() })),
    )
    await ensureDeviceKey(ADMIN)
    const expiresAt = Date.parse((await stored(ADMIN))!.expiresAt!)
    expect(await withDb((db) => signingKey(db, ADMIN, expiresAt - 1))).toMatchObject({ userId: ADMIN })
    expect(await withDb((db) => signingKey(db, ADMIN, expiresAt))).toBeUndefined()
    expect(await withDb((db) => signingKey(db, CONTACT, Date.now()))).toBeUndefined()
  })
})

describe('a device’s readable name', () => {
  it.each([
    [CHROME_ANDROID, 'Chrome · Android'],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      'Safari · iOS',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0 Mobile/15E148 Safari/604.1',
      'Chrome · iOS',
    ],
    [
      'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/127.0 Mobile/15E148 Safari/605.1.15',
      'Firefox · iOS',
    ],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:127.0) Gecko/20100101 Firefox/127.0', 'Firefox · Windows'],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0',
      'Edge · Windows',
    ],
    [
      'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36 EdgA/126.0',
      'Edge · Android',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) EdgiOS/126.0 Mobile/15E148 Safari/605.1.15',
      'Edge · iOS',
    ],
    [
      'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36',
      'Samsung Internet · Android',
    ],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 OPR/111.0.0.0',
      'Opera · macOS',
    ],
    ['Opera/9.80 (Windows NT 6.1) Presto/2.12.388 Version/12.16', 'Opera · Windows'],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
      'Safari · macOS',
    ],
    [
      'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
      'Chrome · ChromeOS',
    ],
    ['Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0', 'Firefox · Linux'],
    ['Mozilla/5.0 (iPod touch; CPU iPhone OS 12_5 like Mac OS X)', 'Browser · iOS'],
    ['Mozilla/5.0 (Mac OS X 10_15_7)', 'Browser · macOS'],
    ['curl/8.0', 'Browser'],
  ])('names %s “%s”', (userAgent, name) => {
    expect(deviceName(userAgent)).toBe(name)
  })
})
