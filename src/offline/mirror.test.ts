import 'fake-indexeddb/auto'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Profile } from '../../contract/auth.ts'
import type { Keychain, KeychainSummary } from '../../contract/keychains.ts'
import type { Tag } from '../../contract/tags.ts'
import type { Transfer } from '../../contract/transfers.ts'
import { offlineDb, resetOfflineDbForTests, withDb } from './db.ts'
import {
  claimMirror,
  mirroredDashboard,
  mirroredKeychain,
  mirroredKeychainSummaries,
  mirroredTagLanding,
  mirroredTransfer,
  mirrorKeychain,
  mirrorOrganizations,
  mirrorProfile,
  mirrorTransfers,
} from './mirror.ts'
import { enqueue } from './outbox.ts'
import { type MirrorSnapshot, refreshMirror, replaceMirror } from './refresh.ts'
import { resolveScanOffline } from './scan-offline.ts'

const ORG = '00000000-0000-4000-8000-0000000000d1'
const OTHER_ORG = '00000000-0000-4000-8000-0000000000d2'
const ADMIN = '00000000-0000-4000-8000-0000000000a1'
const CONTACT = '00000000-0000-4000-8000-0000000000b1'
const NOW = new Date('2026-11-22T10:00:00.000Z')

const tag = (code: string, publicId: string, keychainId: string | null): Tag => ({
  id: `tag-${code}`,
  publicId,
  code,
  name: `Tag ${code}`,
  foregroundColor: '#000000',
  backgroundColor: '#ffffff',
  url: `https://trousseau.test/tags/${publicId}`,
  key: keychainId
    ? { id: `key-${code}`, name: 'Porte', keychainId, keychainName: `Keychain ${keychainId}` }
    : null,
  createdAt: '2026-11-01T00:00:00.000Z',
})
const CAVE_TAG = tag('AGC-00042', 'abcdefghijklmnopqrst', 'kc-cave')

const summary = (id: string): KeychainSummary => ({
  id,
  name: `Keychain ${id}`,
  custodian: null,
  keyCount: 1,
  tagCodes: [],
  updatedAt: '2026-11-01T00:00:00.000Z',
})

const transfer = (id: string, overrides: Partial<Transfer> = {}): Transfer => ({
  id,
  organizationId: ORG,
  organizationName: 'Syndic des Archives',
  keychain: { id: 'kc-cave', name: 'Keychain kc-cave', tags: [CAVE_TAG] },
  recipient: { id: CONTACT, email: 'contact@example.com', firstName: 'Léa', lastName: 'Martin' },
  authorizedBy: null,
  fromDate: '2026-11-22',
  toDate: '2026-11-24',
  startsAt: '2026-11-21T23:00:00.000Z',
  endsAt: '2026-11-23T23:00:00.000Z',
  status: 'SCHEDULED',
  expired: false,
  expiresAt: '2026-11-23T23:00:00.000Z',
  pickupAddress: {
    line1: '14 rue des Archives',
    line2: '',
    city: 'Paris',
    postalCode: '75004',
    country: 'FR',
  },
  pickups: [],
  next: 'PICKUP',
  refusal: null,
  createdAt: '2026-11-20T08:00:00.000Z',
  cancelledAt: null,
  ...overrides,
})

const snapshot = (overrides: Partial<MirrorSnapshot> = {}): MirrorSnapshot => ({
  userId: ADMIN,
  organizationId: ORG,
  tags: { rows: [], complete: true },
  keychains: { rows: [], complete: true },
  transfers: { rows: [], complete: true },
  requests: { rows: [], complete: true },
  startedAt: NOW.toISOString(),
  ...overrides,
})

const counts = () =>
  withDb(async (db) => ({
    keychains: await db.keychains.count(),
    tags: await db.tags.count(),
    transfers: await db.transfers.count(),
  }))

beforeEach(async () => {
  await resetOfflineDbForTests()
  await claimMirror(ADMIN)
})

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('a contact offline', () => {
  it('recognises the tags of a keychain transferred to them, by code or QR URL, and may confirm the pickup', async () => {
    await claimMirror(CONTACT)
    await mirrorTransfers([transfer('tr-1')], CONTACT)
    for (const value of ['agc-00042', 'https://trousseau.test/tags/abcdefghijklmnopqrst']) {
      const result = await resolveScanOffline({
        organizationId: ORG,
        userId: CONTACT,
        value,
        scanId: 'scan-1',
        permissions: ['pickup__transfer'],
        now: NOW,
      })
      expect(result.status).toBe('resolved')
      if (result.status !== 'resolved') return
      expect(result.tag.code).toBe('AGC-00042')
      expect(result.keychain?.name).toBe('Keychain kc-cave')
      expect(result.transfer?.id).toBe('tr-1')
      expect(result.transfer?.next).toBe('PICKUP')
      expect(result.actions).toEqual(['pickup__transfer'])
    }
  })

  it('resolves, from another selected organization, the QR of a keychain transferred to them, for the pickup only', async () => {
    await claimMirror(CONTACT)
    await mirrorTransfers([transfer('tr-1', { organizationId: OTHER_ORG })], CONTACT)
    const result = await resolveScanOffline({
      organizationId: ORG,
      userId: CONTACT,
      value: 'https://trousseau.test/tags/abcdefghijklmnopqrst',
      scanId: 'scan-3',
      permissions: ['read__tag', 'read__keychain', 'update__keychain', 'pickup__transfer'],
      now: NOW,
    })
    expect(result.status === 'resolved' && result.actions).toEqual(['pickup__transfer'])
  })

  it('answers "foreign" for a known tag whose transfer to them is over', async () => {
    await claimMirror(CONTACT)
    await mirrorTransfers([transfer('tr-1', { status: 'RETURNED', next: null })], CONTACT)
    const result = await resolveScanOffline({
      organizationId: ORG,
      userId: CONTACT,
      value: 'AGC-00042',
      scanId: 'scan-4',
      permissions: ['pickup__transfer'],
      now: NOW,
    })
    expect(result).toEqual({ status: 'foreign', scanId: 'scan-4', publicId: 'abcdefghijklmnopqrst' })
  })

  it('does not know a tag of a keychain that was never transferred to them', async () => {
    await claimMirror(CONTACT)
    await mirrorTransfers([transfer('tr-1')], CONTACT)
    const result = await resolveScanOffline({
      organizationId: ORG,
      userId: CONTACT,
      value: 'AGC-00043',
      scanId: 'scan-2',
      permissions: ['pickup__transfer'],
      now: NOW,
    })
    expect(result).toEqual({ status: 'unknown', scanId: 'scan-2', value: 'AGC-00043' })
  })
})

describe('a refresh replaces the mirror', () => {
  it('drops what the server no longer lists and keeps the detail of keychains still listed', async () => {
    await replaceMirror(
      snapshot({
        tags: { rows: [CAVE_TAG, tag('AGC-00050', 'bbbbbbbbbbbbbbbbbbbb', null)], complete: true },
        keychains: { rows: [summary('kc-cave'), summary('kc-gone')], complete: true },
        transfers: { rows: [transfer('tr-1'), transfer('tr-gone')], complete: true },
      }),
    )
    await mirrorKeychain({ id: 'kc-cave', organizationId: ORG } as Keychain)
    expect(await counts()).toEqual({ keychains: 2, tags: 2, transfers: 2 })

    await replaceMirror(
      snapshot({
        tags: { rows: [CAVE_TAG], complete: true },
        keychains: { rows: [summary('kc-cave')], complete: true },
        transfers: { rows: [transfer('tr-1')], complete: true },
      }),
    )
    expect(await counts()).toEqual({ keychains: 1, tags: 1, transfers: 1 })
    expect((await mirroredKeychain('kc-cave'))?.id).toBe('kc-cave')
    expect(await mirroredTransfer('tr-gone')).toBeUndefined()
  })

  it('forgets what the role may no longer read, but keeps the tags of transfers addressed to the user', async () => {
    await claimMirror(CONTACT)
    await replaceMirror(
      snapshot({
        userId: CONTACT,
        tags: { rows: [tag('AGC-00050', 'bbbbbbbbbbbbbbbbbbbb', null)], complete: true },
        keychains: { rows: [summary('kc-cave')], complete: true },
        transfers: { rows: [transfer('tr-1')], complete: true },
      }),
    )
    await replaceMirror(
      snapshot({
        userId: CONTACT,
        tags: null,
        keychains: null,
        transfers: null,
        requests: { rows: [transfer('tr-1')], complete: true },
      }),
    )
    expect(await mirroredKeychainSummaries(ORG)).toEqual([])
    const tags = await withDb((db) => db.tags.toArray())
    expect(tags.map((each) => each.code)).toEqual(['AGC-00042'])
  })

  it('prunes nothing from a list cut short at its page limit', async () => {
    await replaceMirror(snapshot({ keychains: { rows: [summary('kc-a'), summary('kc-b')], complete: true } }))
    await replaceMirror(snapshot({ keychains: { rows: [summary('kc-c')], complete: false } }))
    expect((await mirroredKeychainSummaries(ORG)).map((each) => each.id)).toEqual(['kc-a', 'kc-b', 'kc-c'])
  })

  it('writes nothing once the mirror changed hands (a sign-out or another account meanwhile)', async () => {
    await claimMirror(CONTACT)
    expect(await replaceMirror(snapshot({ keychains: { rows: [summary('kc-a')], complete: true } }))).toBe(
      false,
    )
    expect(await replaceMirror(snapshot({ userId: CONTACT }), { current: () => false })).toBe(false)
    expect(await counts()).toEqual({ keychains: 0, tags: 0, transfers: 0 })
  })

  it('keeps the device’s picture of a transfer whose pickup was sent while the lists were fetched', async () => {
    await claimMirror(CONTACT)
    const picked = transfer('tr-1', { status: 'TRANSFERRED', next: null, refusal: 'own_return' })
    await mirrorTransfers([picked], CONTACT)
    const item = await enqueue({
      kind: 'pickup',
      userId: CONTACT,
      organizationId: ORG,
      value: 'tr-1',
      label: 'Cave',
    })
    await withDb((db) =>
      db.outbox.update(item.id, { status: 'sent', sentAt: new Date(NOW.getTime() + 1000).toISOString() }),
    )
    const stale = { rows: [transfer('tr-1')], complete: true }
    await replaceMirror(
      snapshot({ userId: CONTACT, tags: null, keychains: null, transfers: null, requests: stale }),
    )
    expect((await mirroredTransfer('tr-1'))?.status).toBe('TRANSFERRED')
    // Sent before the fetching began, the lists are newer: they win.
    await replaceMirror(
      snapshot({
        userId: CONTACT,
        tags: null,
        keychains: null,
        transfers: null,
        requests: stale,
        startedAt: new Date(NOW.getTime() + 2000).toISOString(),
      }),
    )
    expect((await mirroredTransfer('tr-1'))?.status).toBe('SCHEDULED')
  })

  it('keeps the device’s picture of a transfer whose pickup waits in the outbox', async () => {
    await claimMirror(CONTACT)
    const provisional = transfer('tr-1', { status: 'TRANSFERRED', next: null, refusal: 'own_return' })
    await mirrorTransfers([provisional], CONTACT)
    await enqueue({ kind: 'pickup', userId: CONTACT, organizationId: ORG, value: 'tr-1', label: 'Cave' })
    await replaceMirror(
      snapshot({
        userId: CONTACT,
        tags: null,
        keychains: null,
        transfers: null,
        requests: { rows: [transfer('tr-1')], complete: true },
      }),
    )
    expect((await mirroredTransfer('tr-1'))?.status).toBe('TRANSFERRED')
  })
})

describe('refreshMirror', () => {
  const profile = (selectedOrganizationId: string): Profile => ({
    id: ADMIN,
    email: 'admin@example.com',
    firstName: 'Ada',
    lastName: 'Admin',
    phoneNumber: '',
    locale: 'fr',
    isOperator: false,
    selectedOrganizationId,
    permissions: ['read__tag', 'read__keychain', 'read__transfer'],
  })
  const page = (data: unknown[]) => ({ data, nextCursor: null })

  function serve(selectedAtTheEnd: string) {
    const answers: Record<string, unknown> = {
      '/api/organizations': { data: [] },
      '/api/stats/dashboard': {
        organization: null,
        requests: { open: 2 },
      },
      [`/api/organizations/${ORG}/tags`]: page([CAVE_TAG]),
      '/api/keychains': page([summary('kc-other-org')]),
      '/api/transfers': page([]),
      '/api/transfers/requests': page([]),
      '/api/profile': profile(selectedAtTheEnd),
    }
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        const path = new URL(url, 'http://localhost').pathname
        if (!(path in answers)) return new Response('{}', { status: 404 })
        return Response.json(answers[path])
      }),
    )
  }

  it('writes nothing when another organization was selected while it fetched', async () => {
    serve(OTHER_ORG)
    const context = { userId: ADMIN, organizationId: ORG, permissions: profile(ORG).permissions }
    expect(await refreshMirror(context)).toBe(false)
    expect(await counts()).toEqual({ keychains: 0, tags: 0, transfers: 0 })
  })

  it('fills the mirror when the session still has the organization selected', async () => {
    serve(ORG)
    const context = { userId: ADMIN, organizationId: ORG, permissions: profile(ORG).permissions }
    expect(await refreshMirror(context)).toBe(true)
    expect(await counts()).toEqual({ keychains: 1, tags: 1, transfers: 0 })
    expect((await mirroredDashboard(ORG))?.requests.open).toBe(2)
  })
})

describe('the tag page from the mirror', () => {
  it('shows a member the tag, its keychain and organization', async () => {
    await mirrorProfile({
      id: ADMIN,
      email: 'admin@example.com',
      firstName: 'Ada',
      lastName: 'Admin',
      phoneNumber: '',
      locale: 'fr',
      isOperator: false,
      selectedOrganizationId: ORG,
      permissions: ['read__tag', 'read__keychain'],
    })
    await mirrorOrganizations([{ id: ORG, name: 'Syndic des Archives' } as never])
    await replaceMirror(snapshot({ tags: { rows: [CAVE_TAG], complete: true } }))
    const landing = await mirroredTagLanding('abcdefghijklmnopqrst')
    expect(landing).toMatchObject({
      view: 'member',
      tag: { code: 'AGC-00042' },
      keychain: { id: 'kc-cave', name: 'Keychain kc-cave', custodian: null },
      organization: { id: ORG, name: 'Syndic des Archives' },
      permissions: ['read__tag', 'read__keychain'],
    })
    expect(await mirroredTagLanding('zzzzzzzzzzzzzzzzzzzz')).toBeUndefined()
  })

  it('shows someone who may not read tags (a contact) only the "found" page, as online', async () => {
    await claimMirror(CONTACT)
    await mirrorProfile({
      id: CONTACT,
      email: 'contact@example.com',
      firstName: 'Léa',
      lastName: 'Martin',
      phoneNumber: '',
      locale: 'fr',
      isOperator: false,
      selectedOrganizationId: ORG,
      permissions: ['pickup__transfer'],
    })
    await mirrorTransfers([transfer('tr-1')], CONTACT)
    expect(await mirroredTagLanding('abcdefghijklmnopqrst')).toEqual({
      view: 'found',
      code: 'AGC-00042',
      organization: { name: 'Syndic des Archives' },
    })
  })

  it('is forgotten with the account', async () => {
    await replaceMirror(snapshot({ tags: { rows: [CAVE_TAG], complete: true } }))
    await mirrorOrganizations([{ id: ORG, name: 'Syndic des Archives' } as never])
    await claimMirror(CONTACT)
    expect(await mirroredTagLanding('abcdefghijklmnopqrst')).toBeUndefined()
    expect(await offlineDb().meta.count()).toBe(1)
  })
})
