import 'fake-indexeddb/auto'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Tag } from '../../contract/tags.ts'
import type { Dashboard } from '../../contract/transfers.ts'
import {
  ADMIN,
  adminProfile,
  CAVE_TAG,
  CONTACT,
  CUSTODIAN,
  contactProfile,
  keychain,
  keyOf,
  NOW,
  ORG,
  OTHER_ORG,
  summary,
  tag,
  transfer,
} from '../../tests/offline-rows.ts'
import { startEachWithAnEmptyMirror } from '../../tests/sync-pages.ts'
import { offlineDb, resetOfflineDbForTests, withDb } from './db.ts'
import {
  asMirroredTag,
  claimMirror,
  mirrorDashboard,
  mirroredDashboard,
  mirroredKeychain,
  mirroredKeychainSummaries,
  mirroredOrganizations,
  mirroredRequests,
  mirroredTag,
  mirroredTagLanding,
  mirroredTransfer,
  mirroredTransfers,
  mirrorKeychain,
  mirrorKeychainSummaries,
  mirrorOrganizations,
  mirrorOwner,
  mirrorProfile,
  mirrorTransfers,
  plainTag,
  summaryOf,
} from './mirror.ts'
import { resolveScanOffline } from './scan-offline.ts'
import { allTags, putTags } from './tag-store.ts'

/** The tags as a full sync of the organization writes them. */
const mirrorTags = (tags: Tag[]) =>
  withDb((db) =>
    putTags(
      db,
      tags.map((each) => asMirroredTag(ORG, each, 'gen-1')),
    ),
  )

/** The list of my organizations, ORG in it under its name. */
const mirrorSyndic = () => mirrorOrganizations([{ id: ORG, name: 'Syndic des Archives' } as never])

/** The "found" page of CAVE_TAG, naming its organization so. */
const foundPage = (organizationName: string) => ({
  view: 'found',
  code: 'AGC-00042',
  organization: { name: organizationName },
})

startEachWithAnEmptyMirror()

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
    await mirrorProfile(adminProfile())
    await mirrorSyndic()
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
    await mirrorProfile(contactProfile())
    await mirrorTransfers([transfer('tr-1')], CONTACT)
    expect(await mirroredTagLanding('abcdefghijklmnopqrst')).toEqual(foundPage('Syndic des Archives'))
  })

  it('is forgotten with the account', async () => {
    await mirrorTags([CAVE_TAG])
    await mirrorSyndic()
    await claimMirror(CONTACT)
    expect(await mirroredTagLanding('abcdefghijklmnopqrst')).toBeUndefined()
    expect(await offlineDb().meta.count()).toBe(1)
  })
})

describe('the mirror’s owner', () => {
  it('is nobody on a new device, then the account that claimed it', async () => {
    await resetOfflineDbForTests()
    expect(await mirrorOwner(offlineDb())).toBeNull()
    await claimMirror(CONTACT)
    expect(await mirrorOwner(offlineDb())).toBe(CONTACT)
    // Under the key earlier versions of the app kept it: an update does not take the mirror for another's.
    expect(await offlineDb().meta.get('owner')).toEqual({ key: 'owner', value: CONTACT })
  })
})

describe('keychains in the mirror', () => {
  it('keeps the detail a screen opened when the list writes its row, and the list row when the detail is written', async () => {
    const detail = keychain('kc-cave', { custodian: CUSTODIAN })
    await mirrorKeychain(detail)
    await mirrorKeychainSummaries(ORG, [summary('kc-cave')])
    expect(await offlineDb().keychains.get('kc-cave')).toEqual({
      id: 'kc-cave',
      organizationId: ORG,
      summary: summary('kc-cave'),
      detail,
    })
    const renamed = keychain('kc-cave', { name: 'Cave', updatedAt: '2026-11-02T00:00:00.000Z' })
    await mirrorKeychain(renamed)
    expect(await offlineDb().keychains.get('kc-cave')).toEqual({
      id: 'kc-cave',
      organizationId: ORG,
      summary: summary('kc-cave'),
      detail: renamed,
    })
    expect(await mirroredKeychain('kc-cave')).toEqual(renamed)
  })

  it('keeps the generation of the full sync that wrote a row when a screen writes it again', async () => {
    await offlineDb().keychains.put({
      id: 'kc-cave',
      organizationId: ORG,
      summary: null,
      detail: keychain('kc-cave'),
      gen: 'gen-1',
    })
    await mirrorKeychainSummaries(ORG, [summary('kc-cave')])
    expect((await offlineDb().keychains.get('kc-cave'))?.gen).toBe('gen-1')
    await mirrorKeychain(keychain('kc-cave'))
    expect((await offlineDb().keychains.get('kc-cave'))?.gen).toBe('gen-1')
  })

  it('writes a list row alone with no detail, and knows no detail for it', async () => {
    await mirrorKeychainSummaries(OTHER_ORG, [summary('kc-a'), summary('kc-b')])
    expect(await offlineDb().keychains.toArray()).toEqual([
      { id: 'kc-a', organizationId: OTHER_ORG, summary: summary('kc-a'), detail: null },
      { id: 'kc-b', organizationId: OTHER_ORG, summary: summary('kc-b'), detail: null },
    ])
    expect(await mirroredKeychain('kc-a')).toBeUndefined()
    expect(await mirroredKeychain('kc-unknown')).toBeUndefined()
  })

  it('lists the organization’s keychains by name, from the list row or else from the detail', async () => {
    await mirrorKeychainSummaries(ORG, [
      { ...summary('kc-1'), name: 'Cave' },
      { ...summary('kc-2'), name: 'Atelier' },
    ])
    await mirrorKeychain(keychain('kc-3', { name: 'Bureau', keys: [keyOf('Porte', CAVE_TAG)] }))
    await mirrorKeychainSummaries(OTHER_ORG, [{ ...summary('kc-4'), name: 'Ailleurs' }])
    await offlineDb().keychains.put({ id: 'kc-5', organizationId: ORG, summary: null, detail: null })
    expect((await mirroredKeychainSummaries(ORG)).map((each) => each.name)).toEqual([
      'Atelier',
      'Bureau',
      'Cave',
    ])
    expect((await mirroredKeychainSummaries(ORG))[1]).toEqual({
      id: 'kc-3',
      name: 'Bureau',
      custodian: null,
      keyCount: 1,
      tagCodes: ['AGC-00042'],
      updatedAt: '2026-11-01T00:00:00.000Z',
    })
    expect(await mirroredKeychainSummaries('org-none')).toEqual([])
  })

  it('summarises a keychain: its keys counted, the codes of its tags sorted, plain keys left out', () => {
    const detail = keychain('kc-1', {
      custodian: CUSTODIAN,
      updatedAt: '2026-11-05T00:00:00.000Z',
      keys: [
        keyOf('Cave', tag('AGC-00050', 'bbbbbbbbbbbbbbbbbbbb', 'kc-1')),
        keyOf('Boîte', null),
        keyOf('Porte', tag('AGC-00007', 'cccccccccccccccccccc', 'kc-1')),
      ],
    })
    expect(summaryOf(detail)).toEqual({
      id: 'kc-1',
      name: 'Keychain kc-1',
      custodian: CUSTODIAN,
      keyCount: 3,
      tagCodes: ['AGC-00007', 'AGC-00050'],
      updatedAt: '2026-11-05T00:00:00.000Z',
    })
  })
})

describe('transfers in the mirror', () => {
  it('marks those addressed to the user, and keeps their keychains’ tags under the transfer’s organization', async () => {
    await claimMirror(CONTACT)
    const other = transfer('tr-2', {
      organizationId: OTHER_ORG,
      recipient: { ...transfer('x').recipient, id: ADMIN },
      keychain: {
        id: 'kc-other',
        name: 'Keychain kc-other',
        tags: [tag('AGC-00001', 'dddddddddddddddddddd', 'kc-other')],
      },
    })
    await mirrorTransfers([transfer('tr-1'), other], CONTACT)
    expect(await offlineDb().transfers.get('tr-1')).toEqual({
      ...transfer('tr-1'),
      recipientId: CONTACT,
      keychainId: 'kc-cave',
      mine: 1,
    })
    expect(await offlineDb().transfers.get('tr-2')).toMatchObject({ mine: 0, keychainId: 'kc-other' })
    expect(
      (await withDb((db) => allTags(db))).map((each) => [each.code, each.organizationId, each.gen]),
    ).toEqual([
      ['AGC-00042', ORG, undefined],
      ['AGC-00001', OTHER_ORG, undefined],
    ])
  })

  it('keeps a transfer’s mark and generation when a list screen, not knowing the user, writes it again', async () => {
    await claimMirror(CONTACT)
    await offlineDb().transfers.put({
      ...transfer('tr-1'),
      recipientId: CONTACT,
      keychainId: 'kc-cave',
      mine: 1,
      gen: 'gen-1',
    })
    await mirrorTransfers([transfer('tr-1', { status: 'TRANSFERRED' }), transfer('tr-2')], null)
    expect(await offlineDb().transfers.get('tr-1')).toMatchObject({
      status: 'TRANSFERRED',
      mine: 1,
      gen: 'gen-1',
    })
    expect(await offlineDb().transfers.get('tr-2')).toMatchObject({ mine: 0 })
    expect(await offlineDb().transfers.get('tr-2')).not.toHaveProperty('gen')
    // Knowing the user, the mark follows the recipient.
    await mirrorTransfers([transfer('tr-1')], ADMIN)
    expect(await offlineDb().transfers.get('tr-1')).toMatchObject({ mine: 0, gen: 'gen-1' })
  })

  it('lists an organization’s transfers, and the requests addressed to me, latest first', async () => {
    await claimMirror(CONTACT)
    const mineEarly = transfer('tr-3', { fromDate: '2026-11-01' })
    const mineLate = transfer('tr-2', { fromDate: '2026-11-20', organizationId: OTHER_ORG })
    const notMine = transfer('tr-1', {
      fromDate: '2026-11-10',
      recipient: { ...transfer('x').recipient, id: ADMIN },
    })
    await mirrorTransfers([mineEarly, mineLate, notMine], CONTACT)
    // Latest first by date, whatever the order of their ids.
    expect((await mirroredTransfers(ORG)).map((each) => each.id)).toEqual(['tr-1', 'tr-3'])
    expect((await mirroredTransfers(OTHER_ORG)).map((each) => each.id)).toEqual(['tr-2'])
    expect((await mirroredRequests()).map((each) => each.id)).toEqual(['tr-2', 'tr-3'])
    expect(await mirroredTransfer('tr-1')).toMatchObject({ id: 'tr-1' })
    expect(await mirroredTransfer('tr-none')).toBeUndefined()
  })
})

describe('tags in the mirror', () => {
  it('finds a tag by its code in the organization, or by its public id or QR URL in any', async () => {
    await mirrorTags([CAVE_TAG])
    expect(await mirroredTag(ORG, ' agc-00042 ')).toMatchObject({ code: 'AGC-00042', organizationId: ORG })
    expect(await mirroredTag(OTHER_ORG, 'AGC-00042')).toBeUndefined()
    expect(await mirroredTag(OTHER_ORG, 'ABCDEFGHIJKLMNOPQRST')).toMatchObject({ code: 'AGC-00042' })
    expect(await mirroredTag(OTHER_ORG, CAVE_TAG.url)).toMatchObject({ code: 'AGC-00042' })
    expect(await mirroredTag(ORG, 'not a tag')).toBeUndefined()
  })

  it('marks a tag with its organization and the full sync that wrote it, and gives the server’s tag back plain', () => {
    expect(asMirroredTag(ORG, CAVE_TAG, 'gen-1')).toEqual({ ...CAVE_TAG, organizationId: ORG, gen: 'gen-1' })
    expect(asMirroredTag(ORG, CAVE_TAG)).toEqual({ ...CAVE_TAG, organizationId: ORG })
    expect(asMirroredTag(ORG, CAVE_TAG, '')).not.toHaveProperty('gen')
    expect(plainTag(asMirroredTag(ORG, CAVE_TAG, 'gen-1'))).toEqual(CAVE_TAG)
  })
})

describe('answers kept whole', () => {
  const dashboard = (open: number): Dashboard => ({ organization: null, requests: { open } }) as Dashboard

  it('keeps the dashboard of each organization apart, and the one without an organization', async () => {
    expect(await mirroredDashboard(ORG)).toBeUndefined()
    await mirrorDashboard(ORG, dashboard(1))
    await mirrorDashboard(OTHER_ORG, dashboard(2))
    await mirrorDashboard(null, dashboard(3))
    expect(await mirroredDashboard(ORG)).toEqual(dashboard(1))
    expect(await mirroredDashboard(OTHER_ORG)).toEqual(dashboard(2))
    expect(await mirroredDashboard(null)).toEqual(dashboard(3))
    expect((await offlineDb().meta.get(`dashboard:${ORG}`))?.value).toBe(JSON.stringify(dashboard(1)))
    expect(await offlineDb().meta.get('dashboard:')).toBeDefined()
  })

  it('keeps the list of my organizations', async () => {
    expect(await mirroredOrganizations()).toBeUndefined()
    await mirrorSyndic()
    expect(await mirroredOrganizations()).toEqual([{ id: ORG, name: 'Syndic des Archives' }])
    expect(await offlineDb().meta.get('organizations')).toBeDefined()
    // Not taken for a dashboard.
    expect(await mirroredDashboard(null)).toBeUndefined()
  })
})

describe('the tag page from the mirror, in detail', () => {
  const PUBLIC_ID = 'abcdefghijklmnopqrst'

  it('names the organization from a transfer when the list of organizations does not have it', async () => {
    await mirrorOrganizations([{ id: OTHER_ORG, name: 'Autre' } as never])
    await mirrorTransfers([transfer('tr-1', { organizationName: 'Syndic (transfert)' })], ADMIN)
    expect(await mirroredTagLanding(PUBLIC_ID)).toEqual(foundPage('Syndic (transfert)'))
  })

  it('prefers the list of organizations to a transfer for the name', async () => {
    await mirrorSyndic()
    await mirrorTransfers([transfer('tr-1', { organizationName: 'Ancien nom' })], ADMIN)
    expect(await mirroredTagLanding(PUBLIC_ID)).toMatchObject({
      organization: { name: 'Syndic des Archives' },
    })
  })

  it('does not show a tag whose organization the device cannot name', async () => {
    await mirrorTags([CAVE_TAG])
    expect(await mirroredTagLanding(PUBLIC_ID)).toBeUndefined()
    await mirrorOrganizations([{ id: OTHER_ORG, name: 'Autre' } as never])
    await mirrorTransfers(
      [transfer('tr-2', { organizationId: OTHER_ORG, keychain: { id: 'x', name: 'x', tags: [] } })],
      ADMIN,
    )
    await mirrorProfile(adminProfile())
    expect(await mirroredTagLanding(PUBLIC_ID)).toBeUndefined()
  })

  it('shows the "found" page to a member who reads tags in another organization than the tag’s', async () => {
    await mirrorProfile(adminProfile({ selectedOrganizationId: OTHER_ORG }))
    await mirrorSyndic()
    await mirrorTags([CAVE_TAG])
    expect(await mirroredTagLanding(PUBLIC_ID)).toEqual(foundPage('Syndic des Archives'))
  })

  it('shows the "found" page without a mirrored profile', async () => {
    await mirrorSyndic()
    await mirrorTags([CAVE_TAG])
    expect(await mirroredTagLanding(PUBLIC_ID)).toMatchObject({ view: 'found' })
  })

  it('shows a member the tag as the server sent it, its keychain’s custodian from the detail, else the list row', async () => {
    await mirrorProfile(adminProfile())
    await mirrorSyndic()
    await mirrorTags([CAVE_TAG])
    await mirrorKeychainSummaries(ORG, [{ ...summary('kc-cave'), custodian: CUSTODIAN }])
    expect(await mirroredTagLanding(PUBLIC_ID)).toEqual({
      view: 'member',
      tag: CAVE_TAG,
      keychain: { id: 'kc-cave', name: 'Keychain kc-cave', custodian: CUSTODIAN },
      organization: { id: ORG, name: 'Syndic des Archives' },
      permissions: ['read__tag', 'read__keychain'],
    })
    const keeper = { ...CUSTODIAN, id: 'keeper', firstName: 'Zoé' }
    await mirrorKeychain(keychain('kc-cave', { custodian: keeper }))
    expect(await mirroredTagLanding(PUBLIC_ID)).toMatchObject({ keychain: { custodian: keeper } })
  })

  it('shows a member no custodian for a keychain the feed wrote without one', async () => {
    await mirrorProfile(adminProfile())
    await mirrorSyndic()
    await mirrorTags([CAVE_TAG])
    await offlineDb().keychains.put({
      id: 'kc-cave',
      organizationId: ORG,
      summary: null,
      detail: keychain('kc-cave'),
    })
    expect(await mirroredTagLanding(PUBLIC_ID)).toMatchObject({
      view: 'member',
      keychain: { id: 'kc-cave', custodian: null },
    })
  })

  it('shows a member a tag on no key without a keychain', async () => {
    await mirrorProfile(adminProfile())
    await mirrorSyndic()
    const loose = tag('AGC-00043', 'eeeeeeeeeeeeeeeeeeee', null)
    await mirrorTags([loose])
    expect(await mirroredTagLanding('eeeeeeeeeeeeeeeeeeee')).toEqual({
      view: 'member',
      tag: loose,
      keychain: null,
      organization: { id: ORG, name: 'Syndic des Archives' },
      permissions: ['read__tag', 'read__keychain'],
    })
  })
})
