import 'fake-indexeddb/auto'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Tag } from '../../contract/tags.ts'
import { ADMIN, CAVE_TAG, CONTACT, NOW, ORG, OTHER_ORG, transfer } from '../../tests/offline-rows.ts'
import { offlineDb, resetOfflineDbForTests, withDb } from './db.ts'
import {
  asMirroredTag,
  claimMirror,
  mirroredTagLanding,
  mirrorOrganizations,
  mirrorProfile,
  mirrorTransfers,
} from './mirror.ts'
import { resolveScanOffline } from './scan-offline.ts'
import { putTags } from './tag-store.ts'

/** The tags as a full sync of the organization writes them. */
const mirrorTags = (tags: Tag[]) =>
  withDb((db) =>
    putTags(
      db,
      tags.map((each) => asMirroredTag(ORG, each, 'gen-1')),
    ),
  )

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
    await mirrorTags([CAVE_TAG])
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
    await mirrorTags([CAVE_TAG])
    await mirrorOrganizations([{ id: ORG, name: 'Syndic des Archives' } as never])
    await claimMirror(CONTACT)
    expect(await mirroredTagLanding('abcdefghijklmnopqrst')).toBeUndefined()
    expect(await offlineDb().meta.count()).toBe(1)
  })
})
