import 'fake-indexeddb/auto'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Profile } from '../../contract/auth.ts'
import { ADMIN, CONTACT, NOW, ORG, transfer } from '../../tests/offline-rows.ts'
import { offlineDb, resetOfflineDbForTests } from './db.ts'
import { fieldContext, forgetAccount, startFieldMode } from './field-mode.ts'
import { claimMirror, mirroredTransfer, mirrorOwner, mirrorTransfers } from './mirror.ts'
import { enqueue } from './outbox.ts'
import { requestPersistentStorage } from './storage.ts'

const profile = (overrides: Partial<Profile> = {}): Profile => ({
  id: CONTACT,
  email: 'contact@example.com',
  firstName: 'Léa',
  lastName: 'Martin',
  phoneNumber: '',
  locale: 'en',
  isOperator: false,
  selectedOrganizationId: ORG,
  permissions: ['pickup__transfer', 'create__scan'],
  ...overrides,
})

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
