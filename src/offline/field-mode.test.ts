import 'fake-indexeddb/auto'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Profile } from '../../contract/auth.ts'
import { ADMIN, CONTACT, contactProfile, NOW, ORG, OTHER_ORG, transfer } from '../../tests/offline-rows.ts'
import { queuePickup } from '../../tests/sync-pages.ts'
import { offlineDb, resetOfflineDbForTests } from './db.ts'
import {
  fieldContext,
  forgetAccount,
  refreshFieldExtras,
  startFieldMode,
  syncFieldMirror,
} from './field-mode.ts'
import { claimMirror, mirroredTransfer, mirrorOwner, mirrorTransfers } from './mirror.ts'
import { enqueue } from './outbox.ts'
import { requestPersistentStorage } from './storage.ts'

const profile = (overrides: Partial<Profile> = {}): Profile =>
  contactProfile({ locale: 'en', permissions: ['pickup__transfer', 'create__scan'], ...overrides })

beforeEach(async () => {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(NOW)
  await resetOfflineDbForTests()
})

afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

describe('field mode', () => {
  it('knows the caller’s organization and rights, or nothing without a selected organization', () => {
    expect(fieldContext(profile())).toEqual({
      userId: CONTACT,
      organizationId: ORG,
      permissions: ['pickup__transfer', 'create__scan'],
    })
    expect(fieldContext(profile({ selectedOrganizationId: null }))).toBeNull()
  })

  it('makes the mirror the account’s, then sends its queued pickup and mirrors the server’s answer', async () => {
    await claimMirror(ADMIN)
    await mirrorTransfers([transfer('tr-admin')], ADMIN)
    const done = transfer('tr-1', { status: 'TRANSFERRED', next: null, refusal: 'own_return' })
    const fetch = vi.fn(async (url: string) => Response.json(url.endsWith('/profile') ? profile() : done))
    vi.stubGlobal('fetch', fetch)
    vi.stubGlobal('navigator', { ...navigator, locks: undefined, storage: undefined })
    await enqueue({ kind: 'pickup', userId: CONTACT, organizationId: ORG, value: 'tr-1', label: 'Cave' })
    const onChanged = vi.fn()
    const worker = await startFieldMode({ profile: profile(), onChanged })
    const report = await worker.wake()
    worker.stop()
    expect(await mirrorOwner(offlineDb())).toBe(CONTACT)
    expect(await mirroredTransfer('tr-admin')).toBeUndefined()
    expect(report).toMatchObject({ sent: 1, refused: 0 })
    expect(await mirroredTransfer('tr-1')).toMatchObject({ status: 'TRANSFERRED' })
    expect(onChanged).toHaveBeenCalled()
    const pickup = fetch.mock.calls.find(([url]) => url.endsWith('/pickups')) as unknown as [
      string,
      RequestInit,
    ]
    expect(pickup[1].headers).toMatchObject({ 'X-From-Queue': '1' })
  })

  it('sends nothing when the session now belongs to someone else', async () => {
    const fetch = vi.fn(async (_url: string) => Response.json(profile({ id: ADMIN })))
    vi.stubGlobal('fetch', fetch)
    vi.stubGlobal('navigator', { ...navigator, locks: undefined, storage: undefined })
    await enqueue({ kind: 'pickup', userId: CONTACT, organizationId: ORG, value: 'tr-1', label: 'Cave' })
    const worker = await startFieldMode({ profile: profile(), onChanged: vi.fn() })
    expect(await worker.wake()).toBeNull()
    worker.stop()
    expect(fetch.mock.calls.every(([url]) => String(url).endsWith('/profile'))).toBe(true)
    expect(await offlineDb().outbox.toArray()).toMatchObject([{ status: 'pending', attempts: 0 }])
  })

  it('forgets the account on sign-out', async () => {
    await claimMirror(CONTACT)
    await mirrorTransfers([transfer('tr-1')], CONTACT)
    await forgetAccount()
    expect(await mirrorOwner(offlineDb())).toBeNull()
    expect(await mirroredTransfer('tr-1')).toBeUndefined()
  })
})

/** A fake server: `/profile` answers `who`; each other path its handler, else 500. */
const server = (who: Profile, routes: Record<string, (init?: RequestInit) => Response> = {}) =>
  vi.fn(async (url: string, init?: RequestInit) => {
    const path = url.replace(/^\/api/, '').split('?')[0]!
    if (path === '/profile') return Response.json(who)
    const route = routes[path]
    return route
      ? route(init)
      : Response.json({ error: { code: 'internal_error', message: 'Broken.' } }, { status: 500 })
  })

const called = (fetch: ReturnType<typeof server>, path: string) =>
  fetch.mock.calls.filter(([url]) => url.replace(/^\/api/, '').startsWith(path)).length

describe('field mode’s outbox', () => {
  beforeEach(() => {
    vi.stubGlobal('navigator', { ...navigator, locks: undefined, storage: undefined, onLine: true })
  })

  it('asks the browser to keep the app’s data when it starts', async () => {
    const persist = vi.fn(async () => true)
    vi.stubGlobal('navigator', {
      ...navigator,
      locks: undefined,
      storage: { persist, persisted: async () => false },
    })
    vi.stubGlobal('fetch', server(profile()))
    const worker = await startFieldMode({ profile: profile(), onChanged: vi.fn() })
    await worker.wake()
    worker.stop()
    expect(persist).toHaveBeenCalledTimes(1)
    expect(await offlineDb().profile.get(CONTACT)).toEqual(profile())
  })

  it('tells nobody when a drain sent nothing, and fetches nothing again', async () => {
    const fetch = server(profile())
    vi.stubGlobal('fetch', fetch)
    const onChanged = vi.fn()
    const worker = await startFieldMode({ profile: profile(), onChanged })
    expect(await worker.wake()).toMatchObject({ sent: 0, refused: 0, serverFailed: 0 })
    worker.stop()
    expect(onChanged).not.toHaveBeenCalled()
    expect(called(fetch, '/sync')).toBe(0)
  })

  it('sends a scan of the selected organization with the session, mirrors no transfer for it, and syncs nothing', async () => {
    const fetch = server(profile(), {
      '/scans': () => Response.json({ status: 'unknown', scanId: 'scan-1', value: 'x' }),
    })
    vi.stubGlobal('fetch', fetch)
    await enqueue({ kind: 'scan', userId: CONTACT, organizationId: ORG, value: 'x', label: 'x' })
    const waiting = await enqueue({
      kind: 'scan',
      userId: CONTACT,
      organizationId: OTHER_ORG,
      value: 'y',
      label: 'y',
    })
    const onChanged = vi.fn()
    const worker = await startFieldMode({ profile: profile(), onChanged })
    expect(await worker.wake()).toMatchObject({ sent: 1, refused: 0 })
    worker.stop()
    expect(onChanged).toHaveBeenCalled()
    expect(called(fetch, '/scans')).toBe(1)
    expect(called(fetch, '/sync')).toBe(0)
    expect(await offlineDb().transfers.count()).toBe(0)
    expect(await offlineDb().outbox.get(waiting.id)).toMatchObject({ status: 'pending', attempts: 0 })
  })

  it('fetches the truth again after a refusal, without mirroring the refused pickup', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    await claimMirror(CONTACT)
    await mirrorTransfers([transfer('tr-1')], CONTACT)
    const fetch = server(profile(), {
      '/transfers/tr-1/pickups': () =>
        Response.json({ error: { code: 'pickup_refused', message: 'Cancelled.' } }, { status: 409 }),
    })
    vi.stubGlobal('fetch', fetch)
    await enqueue({ kind: 'pickup', userId: CONTACT, organizationId: ORG, value: 'tr-1', label: 'Cave' })
    const onChanged = vi.fn()
    const worker = await startFieldMode({ profile: profile(), onChanged })
    expect(await worker.wake()).toMatchObject({ sent: 0, refused: 1 })
    worker.stop()
    expect(onChanged).toHaveBeenCalled()
    expect((await mirroredTransfer('tr-1'))?.status).toBe('SCHEDULED')
    await vi.waitFor(() => expect(called(fetch, '/sync/changes')).toBeGreaterThan(0))
    await vi.waitFor(() => expect(warn).toHaveBeenCalledWith('Mirror sync failed', expect.anything()))
    warn.mockRestore()
  })

  it('fetches the truth again after an item given up on server errors', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    await claimMirror(CONTACT)
    const fetch = server(profile())
    vi.stubGlobal('fetch', fetch)
    const item = await queuePickup()
    await offlineDb().outbox.update(item.id, { serverErrors: 4 } as never)
    const onChanged = vi.fn()
    const worker = await startFieldMode({ profile: profile(), onChanged })
    expect(await worker.wake()).toMatchObject({ sent: 0, refused: 0, serverFailed: 1 })
    worker.stop()
    expect(onChanged).toHaveBeenCalled()
    await vi.waitFor(() => expect(called(fetch, '/sync/changes')).toBeGreaterThan(0))
    await vi.waitFor(() => expect(warn).toHaveBeenCalledWith('Mirror sync failed', expect.anything()))
    warn.mockRestore()
  })

  it('tells of every drain that sent, refused or gave up something, whatever the mix', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    await claimMirror(CONTACT)
    let pickups = 0
    const fetch = server(profile(), {
      '/scans': () => Response.json({ status: 'unknown', scanId: 'scan-1', value: 'x' }),
      '/transfers/tr-1/pickups': () =>
        ++pickups === 1
          ? Response.json({ error: { code: 'pickup_refused', message: 'Cancelled.' } }, { status: 409 })
          : Response.json({ error: { code: 'internal_error', message: 'Broken.' } }, { status: 500 }),
    })
    vi.stubGlobal('fetch', fetch)
    const pickup = () =>
      enqueue({ kind: 'pickup', userId: CONTACT, organizationId: ORG, value: 'tr-1', label: 'Cave' })
    const scan = () => enqueue({ kind: 'scan', userId: CONTACT, organizationId: ORG, value: 'x', label: 'x' })
    const onChanged = vi.fn()
    await scan()
    await pickup()
    const worker = await startFieldMode({ profile: profile(), onChanged })
    expect(await worker.wake()).toMatchObject({ sent: 1, refused: 1, serverFailed: 0 })
    expect(onChanged).toHaveBeenCalledTimes(1)
    await scan()
    const givenUp = await pickup()
    await offlineDb().outbox.update(givenUp.id, { serverErrors: 4 } as never)
    expect(await worker.wake()).toMatchObject({ sent: 1, refused: 0, serverFailed: 1 })
    worker.stop()
    expect(onChanged).toHaveBeenCalledTimes(2)
    vi.mocked(console.warn).mockRestore()
  })
})

describe('handovers in field mode', () => {
  const device = (init?: RequestInit) => {
    const body = JSON.parse(init?.body as string) as { id: string; name: string }
    return Response.json({
      id: body.id,
      name: body.name,
      fingerprint: 'ABCDEFGH',
      registeredAt: NOW.toISOString(),
      expiresAt: new Date(NOW.getTime() + 180 * 24 * 3600 * 1000).toISOString(),
      revokedAt: null,
      lastHandoverAt: null,
    })
  }

  beforeEach(() => {
    vi.stubGlobal('navigator', { ...navigator, locks: undefined, storage: undefined, onLine: true })
  })

  it('makes and registers this device’s key at start', async () => {
    const fetch = server(profile(), { '/devices': device })
    vi.stubGlobal('fetch', fetch)
    const worker = await startFieldMode({ profile: profile(), onChanged: vi.fn() })
    worker.stop()
    await vi.waitFor(async () =>
      expect((await offlineDb().deviceKeyPairs.get(CONTACT))?.registeredAt).toBe(NOW.toISOString()),
    )
    expect(called(fetch, '/devices')).toBe(1)
  })

  it('sees to this device’s key after each sync, and only warns when that fails', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const fetch = server(profile())
    vi.stubGlobal('fetch', fetch)
    await syncFieldMirror({ userId: CONTACT, organizationId: ORG, permissions: [] })
    expect(called(fetch, '/devices')).toBe(1)
    expect(warn).toHaveBeenCalledWith(
      'Device key registration failed',
      expect.objectContaining({ status: 500 }),
    )
    expect(await offlineDb().deviceKeyPairs.get(CONTACT)).toMatchObject({ registeredAt: null })
    warn.mockRestore()
  })

  it('settles a replayed handover with the server’s answer', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    await claimMirror(CONTACT)
    const fetch = server(profile(), {
      '/handovers': () =>
        Response.json(
          { error: { code: 'handover_refused', message: 'Refused.', reason: 'not_custodian' } },
          { status: 409 },
        ),
    })
    vi.stubGlobal('fetch', fetch)
    const item = await enqueue({
      kind: 'handover',
      userId: CONTACT,
      organizationId: ORG,
      value: 'offer-1',
      label: 'Cave',
      handover: { keychainId: 'kc-1', handover: { offer: 'O', acceptance: 'A' } },
    })
    const person = { id: CONTACT, email: '', firstName: '', lastName: '' }
    await offlineDb().handovers.put({
      userId: CONTACT,
      offerId: 'offer-1',
      role: 'receiver',
      organizationId: ORG,
      keychain: { id: 'kc-1', name: 'Cave' },
      giver: person,
      receiver: person,
      offerCode: 'O',
      acceptanceCode: 'A',
      offeredAt: NOW.toISOString(),
      acceptedAt: NOW.toISOString(),
      state: 'queued',
      reason: null,
      itemId: item.id,
      before: null,
    })
    const worker = await startFieldMode({ profile: profile(), onChanged: vi.fn() })
    expect(await worker.wake()).toMatchObject({ refused: 1 })
    worker.stop()
    expect(await offlineDb().handovers.get([CONTACT, 'offer-1'])).toMatchObject({
      state: 'REFUSED',
      reason: 'not_custodian',
    })
    expect(await offlineDb().outbox.count()).toBe(0)
    vi.mocked(console.warn).mockRestore()
  })
})

describe('the mirror’s refresh in field mode', () => {
  const context = { userId: CONTACT, organizationId: ORG, permissions: ['pickup__transfer'] }

  beforeEach(() => {
    vi.stubGlobal('navigator', { ...navigator, locks: undefined, onLine: true })
  })

  it('does nothing without a selected organization or a network', async () => {
    const fetch = server(profile())
    vi.stubGlobal('fetch', fetch)
    await claimMirror(ADMIN)
    await syncFieldMirror(null)
    await refreshFieldExtras(null)
    vi.stubGlobal('navigator', { ...navigator, locks: undefined, onLine: false })
    await syncFieldMirror(context)
    await refreshFieldExtras(context)
    expect(fetch).not.toHaveBeenCalled()
    expect(await mirrorOwner(offlineDb())).toBe(ADMIN)
  })

  it('syncs the mirror as the account’s, and only warns when the feed fails', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const fetch = server(profile())
    vi.stubGlobal('fetch', fetch)
    await claimMirror(ADMIN)
    await mirrorTransfers([transfer('tr-admin')], ADMIN)
    await syncFieldMirror(context)
    expect(await mirrorOwner(offlineDb())).toBe(CONTACT)
    expect(await mirroredTransfer('tr-admin')).toBeUndefined()
    expect(called(fetch, '/sync/changes')).toBeGreaterThan(0)
    expect(warn).toHaveBeenCalledWith('Mirror sync failed', expect.objectContaining({ status: 500 }))
    warn.mockRestore()
  })

  it('refreshes the extras as the account’s, and only warns when the server fails', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const fetch = server(profile())
    vi.stubGlobal('fetch', fetch)
    await claimMirror(ADMIN)
    await refreshFieldExtras(context)
    expect(await mirrorOwner(offlineDb())).toBe(CONTACT)
    expect(called(fetch, '/organizations')).toBeGreaterThan(0)
    expect(warn).toHaveBeenCalledWith('Mirror refresh failed', expect.objectContaining({ status: 500 }))
    warn.mockRestore()
  })
})

describe('persistent storage', () => {
  it('is asked for once, unless already granted, and not where the browser cannot', async () => {
    const persist = vi.fn(async () => true)
    vi.stubGlobal('navigator', { ...navigator, storage: { persist, persisted: async () => false } })
    expect(await requestPersistentStorage()).toBe(true)
    expect(persist).toHaveBeenCalledTimes(1)
    vi.stubGlobal('navigator', { ...navigator, storage: { persist, persisted: async () => true } })
    expect(await requestPersistentStorage()).toBe(true)
    expect(persist).toHaveBeenCalledTimes(1)
    vi.stubGlobal('navigator', { ...navigator, storage: undefined })
    expect(await requestPersistentStorage()).toBeNull()
  })
})
