import 'fake-indexeddb/auto'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Handover } from '../../contract/handover.ts'
import { checkSignedPair, type DeviceKeyRecord } from '../../contract/handover-check.ts'
import {
  acceptanceText,
  DEVICE_KEY_ALGORITHM,
  exportPublicKey,
  fingerprintOf,
  formatReceiveCode,
  offerIdOf,
  offerText,
  parseAcceptance,
  parseOffer,
  parseReceiveCode,
  signedCode,
  signText,
} from '../../contract/handover-codes.ts'
import type { Keychain } from '../../contract/keychains.ts'
import type { Person } from '../../contract/person.ts'
import type { MirroredDeviceKey } from '../../contract/sync.ts'
import { adminProfile, keychain, ORG, OTHER_ORG, transfer } from '../../tests/offline-rows.ts'
import { page } from '../../tests/sync-pages.ts'
import { applySyncPage, type SyncState } from './apply.ts'
import { resetOfflineDbForTests, switchOfflineDbForTests, withDb } from './db.ts'
import {
  acceptOffer,
  completeOffer,
  ensureDeviceKey,
  type LocalHandover,
  localHandover,
  localHandovers,
  makeOffer,
  settleHandover,
  startReceiving,
} from './handover.ts'
import {
  claimMirror,
  mirroredKeychain,
  mirroredKeychainSummaries,
  mirrorKeychainSummaries,
  mirrorProfile,
  mirrorTransfers,
} from './mirror.ts'
import { drain, inFlight } from './outbox.ts'
import { sendItem } from './transport.ts'

/**
 * Two phones in one test: each has its own database (its mirror, outbox and keys), switched to before it acts,
 * and the same organization's device keys from the sync feed.
 */

const DAY = 24 * 60 * 60 * 1000
const KEYCHAIN = '00000000-0000-4000-8000-00000000ca01'

const person = (id: string, firstName: string): Person => ({
  id,
  email: `${firstName.toLowerCase()}@example.com`,
  firstName,
  lastName: 'Test',
})
const GIVER = person('00000000-0000-4000-8000-0000000000e1', 'Gilles')
const RECEIVER = person('00000000-0000-4000-8000-0000000000e2', 'Rose')
const THIRD = person('00000000-0000-4000-8000-0000000000e3', 'Tom')

type Phone = { name: string; user: Person; deviceId: string; publicKey: string; fingerprint: string }
let synced = new Map<string, SyncState | null>()
let session: Person = GIVER

/** The server: `/profile` answers the phone's user; `POST /devices` registers; `POST /handovers` as told. */
let handoverAnswer: (body: { offer: string; acceptance: string }) => Response | Promise<Response>
const fetch = vi.fn(async (url: string, init?: RequestInit) => {
  if (url === '/api/profile') return Response.json(adminProfile(session))
  const body = init?.body ? (JSON.parse(init.body as string) as Record<string, string>) : {}
  if (url === '/api/devices')
    return Response.json({
      id: body.id,
      name: body.name,
      fingerprint: 'ABCDEFGH',
      registeredAt: new Date().toISOString(),
      expiresAt: new Date(Date.now() + 180 * DAY).toISOString(),
      revokedAt: null,
      lastHandoverAt: null,
    })
  if (url === '/api/handovers') return handoverAnswer(body as { offer: string; acceptance: string })
  return Response.json({ error: { code: 'not_found', message: 'No.' } }, { status: 404 })
})
const handoverCalls = () => fetch.mock.calls.filter(([url]) => url === '/api/handovers')

const online = () => vi.stubGlobal('navigator', { onLine: true, userAgent: 'Chrome/126 Android' })
const offline = () => vi.stubGlobal('navigator', { onLine: false, userAgent: 'Chrome/126 Android' })

/** Switches to `phone`: what follows reads and writes its database. */
const on = (phone: Phone | string) => {
  const name = typeof phone === 'string' ? phone : phone.name
  switchOfflineDbForTests(name)
  if (typeof phone !== 'string') session = phone.user
}

/** A phone of `user`, its mirror claimed, its profile kept, its key made and registered. */
async function phone(name: string, user: Person): Promise<Phone> {
  on(name)
  session = user
  await resetOfflineDbForTests()
  on(name)
  await claimMirror(user.id)
  await mirrorProfile(adminProfile(user))
  online()
  const identity = await ensureDeviceKey(user.id)
  expect(identity.registered).toBe(true)
  synced.set(name, null)
  return { name, user, ...identity }
}

const keyOf = (each: Phone, overrides: Partial<MirroredDeviceKey> = {}): MirroredDeviceKey => ({
  id: each.deviceId,
  userId: each.user.id,
  person: each.user,
  publicKey: each.publicKey,
  fingerprint: each.fingerprint,
  expiresAt: new Date(Date.now() + 170 * DAY).toISOString(),
  revokedAt: null,
  ...overrides,
})

const held = (custodian: Person | null, custodySeq: number, overrides: Partial<Keychain> = {}) =>
  keychain(KEYCHAIN, {
    name: 'Cave',
    custodian,
    custodySeq,
    status: custodian ? 'HELD' : 'FREE',
    ...overrides,
  })

/** A page of the feed on `phone`: the keychain as the server has it, and the organization's device keys. */
async function sync(on: Phone, input: { keychains?: Keychain[]; deviceKeys: MirroredDeviceKey[] }) {
  const state = await withDb((db) =>
    applySyncPage(db, {
      page: page({ keychains: input.keychains ?? [], deviceKeys: input.deviceKeys }),
      userId: on.user.id,
      expected: synced.get(on.name) ?? null,
      requestedAt: new Date().toISOString(),
      readsTags: true,
    }),
  )
  expect(state).not.toBeNull()
  synced.set(on.name, state)
}

let giver: Phone
let receiver: Phone

/** A device of `user` that is no phone of the test: its key pair and its entry in the sync feed. */
async function stranger(user: Person) {
  const pair = (await crypto.subtle.generateKey(DEVICE_KEY_ALGORITHM, false, [
    'sign',
    'verify',
  ])) as CryptoKeyPair
  const publicKey = await exportPublicKey(pair.publicKey)
  const id = crypto.randomUUID()
  const mirrored: MirroredDeviceKey = {
    id,
    userId: user.id,
    person: user,
    publicKey,
    fingerprint: await fingerprintOf(publicKey),
    expiresAt: new Date(Date.now() + 170 * DAY).toISOString(),
    revokedAt: null,
  }
  const sign = async (text: string) => signedCode(text, await signText(pair.privateKey, text))
  return { id, mirrored, sign }
}

/** Signs `text` with the key a phone of the test keeps for `user` (as that phone would). */
async function signedOn(phone: Phone, text: string) {
  on(phone)
  const key = await withDb((db) => db.deviceKeyPairs.get(phone.user.id))
  return signedCode(text, await signText(key!.privateKey!, text))
}

/** Both phones synced with the keychain held by the giver (custody change 3) and both keys. */
async function bothSynced(keychainOn: { giver?: Keychain | null; receiver?: Keychain | null } = {}) {
  const keys = [keyOf(giver), keyOf(receiver)]
  on(giver)
  await sync(giver, { keychains: nonNull(keychainOn.giver, held(GIVER, 3)), deviceKeys: keys })
  on(receiver)
  await sync(receiver, { keychains: nonNull(keychainOn.receiver, held(GIVER, 3)), deviceKeys: keys })
}
const nonNull = (chosen: Keychain | null | undefined, otherwise: Keychain) =>
  chosen === null ? [] : [chosen ?? otherwise]

/** The whole exchange, offline: receive code, offer, acceptance, completion. */
async function handOver() {
  offline()
  on(receiver)
  const { code } = await startReceiving(RECEIVER.id, ORG)
  on(giver)
  const offer = await makeOffer({
    userId: GIVER.id,
    organizationId: ORG,
    keychainId: KEYCHAIN,
    receiveCode: code,
  })
  if (!offer.ok) throw new Error(offer.reason)
  on(receiver)
  const accepted = await acceptOffer({ userId: RECEIVER.id, organizationId: ORG, offerCode: offer.offerCode })
  if (!accepted.ok) throw new Error(accepted.reason)
  on(giver)
  const completed = await completeOffer({
    userId: GIVER.id,
    organizationId: ORG,
    acceptanceCode: accepted.acceptanceCode,
  })
  if (!completed.ok) throw new Error(completed.reason)
  return { code, offer, accepted, completed }
}

const outbox = () => withDb((db) => db.outbox.toArray())
const custodianShown = async () => (await mirroredKeychain(KEYCHAIN))?.custodian?.id

/** The replay of the outbox as field mode does it: sent, then the answer settles the handover. */
const replay = (userId: string) =>
  drain(
    async (item) => {
      const outcome = await sendItem(item, true)
      await settleHandover(item, outcome)
      return outcome
    },
    { userId, force: true },
  )

const applied = (body: { offer: string; acceptance: string }, status = 201) =>
  Response.json(
    {
      id: 'x'.repeat(43),
      status: 'APPLIED',
      reason: null,
      keychain: { id: KEYCHAIN, name: 'Cave' },
      giver: GIVER,
      receiver: RECEIVER,
      giverDeviceId: parseOffer(body.offer)!.value.giverDeviceId,
      receiverDeviceId: parseOffer(body.offer)!.value.receiverDeviceId,
      offeredAt: new Date().toISOString(),
      acceptedAt: new Date().toISOString(),
      receivedAt: new Date().toISOString(),
      sentBy: RECEIVER,
    } satisfies Handover,
    { status },
  )
const refusedWith = (reason: string) => () =>
  Response.json({ error: { code: 'handover_refused', message: 'Refused.', reason } }, { status: 409 })

beforeEach(async () => {
  vi.stubGlobal('fetch', fetch)
  fetch.mockClear()
  synced = new Map()
  handoverAnswer = applied
  giver = await phone('giver-phone', GIVER)
  receiver = await phone('receiver-phone', RECEIVER)
})

afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
  vi.useRealTimers()
})

describe('a handover between two phones with no network', () => {
  it('queues the same signed pair on both, shows the receiver holding the keychain on both, with the same record', async () => {
    await bothSynced()
    const { code, offer, accepted, completed } = await handOver()
    expect(code).toMatch(/^R-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/)
    expect(parseReceiveCode(code)?.fingerprint).toBe(receiver.fingerprint)
    expect(offer.receiver).toEqual(RECEIVER)
    expect(offer.offerId).toBe(accepted.handover.offerId)
    expect(parseOffer(offer.offerCode)?.value).toMatchObject({
      organizationId: ORG,
      keychainId: KEYCHAIN,
      giverId: GIVER.id,
      giverDeviceId: giver.deviceId,
      receiverId: RECEIVER.id,
      receiverDeviceId: receiver.deviceId,
      receiverNonce: parseReceiveCode(code)?.nonce,
      base: 3,
    })
    expect(parseAcceptance(accepted.acceptanceCode)?.value).toMatchObject({
      offerId: offer.offerId,
      receiverDeviceId: receiver.deviceId,
    })
    expect(handoverCalls()).toHaveLength(0)

    // The pair is what the server accepts: both signatures by the keys it registered.
    const records = new Map<string, DeviceKeyRecord>(
      [giver, receiver].map((each) => [each.deviceId, { ...keyOf(each) }]),
    )
    const checked = await checkSignedPair(offer.offerCode, accepted.acceptanceCode, (id) => records.get(id))
    expect(checked).toMatchObject({ ok: true, value: { offerId: offer.offerId } })

    const pair = { offer: offer.offerCode, acceptance: accepted.acceptanceCode }
    const record = (role: 'giver' | 'receiver'): LocalHandover => ({
      offerId: offer.offerId,
      role,
      organizationId: ORG,
      keychain: { id: KEYCHAIN, name: 'Cave' },
      giver: GIVER,
      receiver: RECEIVER,
      offerCode: offer.offerCode,
      acceptanceCode: accepted.acceptanceCode,
      offeredAt: new Date(parseOffer(offer.offerCode)!.value.at).toISOString(),
      acceptedAt: new Date(parseAcceptance(accepted.acceptanceCode)!.value.at).toISOString(),
      state: 'queued',
      reason: null,
    })
    expect(accepted.handover).toEqual(record('receiver'))
    expect(completed.handover).toEqual(record('giver'))
    for (const [each, role] of [
      [giver, 'giver'],
      [receiver, 'receiver'],
    ] as const) {
      on(each)
      expect(await outbox()).toMatchObject([
        {
          kind: 'handover',
          userId: each.user.id,
          organizationId: ORG,
          value: offer.offerId,
          keychainId: KEYCHAIN,
          handover: pair,
          label: 'Cave',
          status: 'pending',
        },
      ])
      expect(await custodianShown()).toBe(RECEIVER.id)
      expect(await mirroredKeychain(KEYCHAIN)).toMatchObject({
        custodian: RECEIVER,
        custodySeq: 3,
        status: 'HELD',
      })
      expect(await localHandovers(each.user.id, ORG)).toEqual([record(role)])
      expect(await localHandovers(each.user.id, OTHER_ORG)).toEqual([])
      expect(await localHandover(offer.offerId)).toEqual(record(role))
    }
    expect(inFlight.size).toBe(0)
    // The receive code and the offer are used up.
    on(receiver)
    expect(await withDb((db) => db.meta.get(`handover-receiving:${RECEIVER.id}`))).toBeUndefined()
    on(giver)
    expect(await withDb((db) => db.pendingOffers.count())).toBe(0)
  })

  it('still shows the receiver after a reload, and after a page of the feed that does not know the handover yet', async () => {
    await bothSynced()
    await handOver()
    for (const each of [giver, receiver]) {
      on('elsewhere')
      on(each)
      expect(await custodianShown()).toBe(RECEIVER.id)
      await sync(each, { keychains: [held(GIVER, 3)], deviceKeys: [keyOf(giver), keyOf(receiver)] })
      expect(await mirroredKeychain(KEYCHAIN)).toMatchObject({ custodian: RECEIVER, status: 'HELD' })
      // The feed's next custody change settles it (the handover, or whatever came first).
      const later = THIRD
      await sync(each, { keychains: [held(later, 4)], deviceKeys: [keyOf(giver), keyOf(receiver)] })
      expect(await mirroredKeychain(KEYCHAIN)).toMatchObject({ custodian: later, custodySeq: 4 })
    }
  })

  it('shows the receiver in the keychain lists too, off its hook', async () => {
    await bothSynced()
    on(giver)
    await mirrorKeychainSummaries(ORG, [
      {
        id: KEYCHAIN,
        name: 'Cave',
        custodian: GIVER,
        keyCount: 1,
        tagCodes: [],
        updatedAt: '2026-11-01T00:00:00.000Z',
        status: 'HELD',
        whereabouts: 'HELD',
      },
    ])
    await handOver()
    on(giver)
    expect(await mirroredKeychainSummaries(ORG)).toMatchObject([
      { id: KEYCHAIN, custodian: RECEIVER, status: 'HELD', whereabouts: 'HELD' },
    ])
  })

  it('shows a free keychain handed over as held', async () => {
    // The giver's phone has not seen the giver take it off its hook; the receiver's knows.
    await bothSynced({ giver: held(GIVER, 3, { status: 'FREE' }) })
    await handOver()
    for (const each of [giver, receiver]) {
      on(each)
      expect(await mirroredKeychain(KEYCHAIN)).toMatchObject({ custodian: RECEIVER, status: 'HELD' })
    }
  })

  it('never queues the same pair twice on one phone: scanning the offer or the acceptance again answers the same', async () => {
    await bothSynced()
    const { offer, accepted, completed } = await handOver()
    on(receiver)
    const again = await acceptOffer({ userId: RECEIVER.id, organizationId: ORG, offerCode: offer.offerCode })
    expect(again).toEqual(accepted)
    on(giver)
    expect(
      await completeOffer({ userId: GIVER.id, organizationId: ORG, acceptanceCode: accepted.acceptanceCode }),
    ).toEqual(completed)
    for (const each of [giver, receiver]) {
      on(each)
      expect(await outbox()).toHaveLength(1)
    }
  })

  it('queues one pair when the offer is accepted twice at the same time', async () => {
    await bothSynced()
    offline()
    on(receiver)
    const { code } = await startReceiving(RECEIVER.id, ORG)
    on(giver)
    const offer = await makeOffer({
      userId: GIVER.id,
      organizationId: ORG,
      keychainId: KEYCHAIN,
      receiveCode: code,
    })
    on(receiver)
    const input = { userId: RECEIVER.id, organizationId: ORG, offerCode: offer.ok ? offer.offerCode : '' }
    const [a, b] = await Promise.all([acceptOffer(input), acceptOffer(input)])
    expect(a).toMatchObject({ ok: true })
    expect(b).toEqual(a)
    expect(await outbox()).toHaveLength(1)
  })

  it('accepts a receive code typed in lowercase, without dashes, with spaces, O for 0 and L for 1', async () => {
    await bothSynced()
    offline()
    on(receiver)
    const { code } = await startReceiving(RECEIVER.id, ORG)
    on(giver)
    for (const typed of [
      code.toLowerCase(),
      code.replaceAll('-', ''),
      ` ${code.replaceAll('-', ' ').toLowerCase()} `,
      code.replaceAll('0', 'o').replaceAll('1', 'l'),
    ]) {
      const offer = await makeOffer({
        userId: GIVER.id,
        organizationId: ORG,
        keychainId: KEYCHAIN,
        receiveCode: typed,
      })
      expect(offer).toMatchObject({ ok: true, receiver: RECEIVER })
    }
  })

  it('accepts codes scanned with spaces or a line break around them', async () => {
    await bothSynced()
    offline()
    on(receiver)
    const { code } = await startReceiving(RECEIVER.id, ORG)
    on(giver)
    const offer = await makeOffer({
      userId: GIVER.id,
      organizationId: ORG,
      keychainId: KEYCHAIN,
      receiveCode: code,
    })
    if (!offer.ok) throw new Error(offer.reason)
    on(receiver)
    const accepted = await acceptOffer({
      userId: RECEIVER.id,
      organizationId: ORG,
      offerCode: ` ${offer.offerCode}\n`,
    })
    if (!accepted.ok) throw new Error(accepted.reason)
    expect(accepted.handover.offerCode).toBe(offer.offerCode)
    on(giver)
    const completed = await completeOffer({
      userId: GIVER.id,
      organizationId: ORG,
      acceptanceCode: `${accepted.acceptanceCode}\n`,
    })
    expect(completed).toMatchObject({ ok: true, handover: { acceptanceCode: accepted.acceptanceCode } })
  })

  it('lists the handovers newest first, each with its role', async () => {
    const other = '00000000-0000-4000-8000-00000000ca02'
    await bothSynced()
    on(giver)
    await sync(giver, {
      keychains: [held(GIVER, 3), keychain(other, { name: 'Grenier', custodian: GIVER, custodySeq: 1 })],
      deviceKeys: [keyOf(giver), keyOf(receiver)],
    })
    const first = await handOver()
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + 60_000)
    on(receiver)
    const { code } = await startReceiving(RECEIVER.id, ORG)
    on(giver)
    const offer = await makeOffer({
      userId: GIVER.id,
      organizationId: ORG,
      keychainId: other,
      receiveCode: code,
    })
    if (!offer.ok) throw new Error(offer.reason)
    on(receiver)
    await sync(receiver, {
      keychains: [keychain(other, { name: 'Grenier', custodian: GIVER, custodySeq: 1 })],
      deviceKeys: [keyOf(giver), keyOf(receiver)],
    })
    const second = await acceptOffer({ userId: RECEIVER.id, organizationId: ORG, offerCode: offer.offerCode })
    if (!second.ok) throw new Error(second.reason)
    expect((await localHandovers(RECEIVER.id, ORG)).map((each) => each.offerId)).toEqual([
      second.handover.offerId,
      first.offer.offerId,
    ])
    on(giver)
    expect((await localHandovers(GIVER.id, ORG)).map((each) => [each.offerId, each.role])).toEqual([
      [first.offer.offerId, 'giver'],
    ])
    expect(await localHandover('unknown')).toBeUndefined()
  })

  it('lists the handovers by when they were accepted, newest first, whatever their ids', async () => {
    on(giver)
    const row = (offerId: string, acceptedAt: string) => ({
      userId: GIVER.id,
      offerId,
      role: 'giver' as const,
      organizationId: ORG,
      keychain: { id: KEYCHAIN, name: 'Cave' },
      giver: GIVER,
      receiver: RECEIVER,
      offerCode: '',
      acceptanceCode: '',
      offeredAt: acceptedAt,
      acceptedAt,
      state: 'queued' as const,
      reason: null,
      itemId: offerId,
      before: null,
    })
    await withDb((db) =>
      db.handovers.bulkPut([
        row('a', '2026-11-22T10:00:00.000Z'),
        row('b', '2026-11-22T11:00:00.000Z'),
        row('c', '2026-11-22T09:00:00.000Z'),
      ]),
    )
    expect((await localHandovers(GIVER.id, ORG)).map((each) => each.offerId)).toEqual(['b', 'a', 'c'])
  })

  it('lets a contact who reads no keychains receive one from a transfer addressed to them', async () => {
    await bothSynced({ receiver: null })
    on(receiver)
    await mirrorTransfers(
      [
        transfer('00000000-0000-4000-8000-0000000000f1', {
          keychain: { id: KEYCHAIN, name: 'Cave', tags: [] },
          recipient: RECEIVER,
        }),
      ],
      RECEIVER.id,
    )
    const { accepted } = await handOver()
    expect(accepted.handover).toMatchObject({ keychain: { id: KEYCHAIN, name: 'Cave' }, state: 'queued' })
    on(receiver)
    expect(await mirroredKeychain(KEYCHAIN)).toBeUndefined()
  })

  it('names the signed-in user from their own key when the phone kept no profile', async () => {
    await bothSynced()
    on(receiver)
    await withDb((db) => db.profile.clear())
    const { accepted } = await handOver()
    expect(accepted.handover.receiver).toEqual(RECEIVER)
    on(giver)
    await withDb((db) => db.profile.clear())
    await withDb((db) => db.deviceKeys.clear())
    on(receiver)
    const { code } = await startReceiving(RECEIVER.id, ORG)
    on(giver)
    await sync(giver, { keychains: [held(GIVER, 5)], deviceKeys: [keyOf(receiver)] })
    const offer = await makeOffer({
      userId: GIVER.id,
      organizationId: ORG,
      keychainId: KEYCHAIN,
      receiveCode: code,
    })
    expect(offer.ok).toBe(true)
    const pending = await withDb((db) => db.pendingOffers.toArray())
    expect(pending.map((each) => each.giver)).toEqual([
      { id: GIVER.id, email: '', firstName: '', lastName: '' },
    ])
  })

  it('offers a keychain the mirror knows from a list only with base 0', async () => {
    await bothSynced({ giver: null })
    on(giver)
    await mirrorKeychainSummaries(ORG, [
      {
        id: KEYCHAIN,
        name: 'Cave',
        custodian: GIVER,
        keyCount: 1,
        tagCodes: [],
        updatedAt: '2026-11-01T00:00:00.000Z',
      },
    ])
    offline()
    on(receiver)
    const { code } = await startReceiving(RECEIVER.id, ORG)
    on(giver)
    const offer = await makeOffer({
      userId: GIVER.id,
      organizationId: ORG,
      keychainId: KEYCHAIN,
      receiveCode: code,
    })
    if (!offer.ok) throw new Error(offer.reason)
    expect(parseOffer(offer.offerCode)?.value.base).toBe(0)
  })

  it('keeps a transfer’s status: a keychain handed over before its transfer starts is still scheduled', async () => {
    await bothSynced({
      giver: held(GIVER, 3, { status: 'SCHEDULED' }),
      receiver: held(GIVER, 3, { status: undefined }),
    })
    await handOver()
    on(giver)
    expect(await mirroredKeychain(KEYCHAIN)).toMatchObject({ custodian: RECEIVER, status: 'SCHEDULED' })
    on(receiver)
    expect((await mirroredKeychain(KEYCHAIN))?.status).toBeUndefined()
  })

  it('names the signed-in user from their profile first', async () => {
    await bothSynced()
    on(receiver)
    await mirrorProfile(adminProfile({ ...RECEIVER, firstName: 'Rosa' }))
    const { accepted } = await handOver()
    expect(accepted.handover.receiver).toEqual({ ...RECEIVER, firstName: 'Rosa' })
  })

  it('lets a contact receive when the mirror has an empty row for the keychain', async () => {
    await bothSynced({ receiver: null })
    on(receiver)
    await mirrorTransfers(
      [
        transfer('00000000-0000-4000-8000-0000000000f1', {
          keychain: { id: KEYCHAIN, name: 'Cave', tags: [] },
          recipient: RECEIVER,
        }),
      ],
      RECEIVER.id,
    )
    await withDb((db) => db.keychains.put({ id: KEYCHAIN, organizationId: ORG, summary: null, detail: null }))
    const { accepted } = await handOver()
    expect(accepted.ok).toBe(true)
    on(receiver)
    expect(await withDb((db) => db.keychains.get(KEYCHAIN))).toEqual({
      id: KEYCHAIN,
      organizationId: ORG,
      summary: null,
      detail: null,
    })
  })

  it('knows a keychain from a transfer of its own organization only', async () => {
    await bothSynced({ receiver: null })
    on(receiver)
    await mirrorTransfers(
      [
        transfer('00000000-0000-4000-8000-0000000000f1', {
          organizationId: OTHER_ORG,
          keychain: { id: KEYCHAIN, name: 'Cave', tags: [] },
          recipient: RECEIVER,
        }),
      ],
      RECEIVER.id,
    )
    offline()
    const { code } = await startReceiving(RECEIVER.id, ORG)
    on(giver)
    const offer = await makeOffer({
      userId: GIVER.id,
      organizationId: ORG,
      keychainId: KEYCHAIN,
      receiveCode: code,
    })
    on(receiver)
    expect(
      await acceptOffer({
        userId: RECEIVER.id,
        organizationId: ORG,
        offerCode: offer.ok ? offer.offerCode : '',
      }),
    ).toEqual({ ok: false, reason: 'keychain_unknown' })
  })

  it('keeps nothing when the write fails half-way', async () => {
    await bothSynced()
    offline()
    on(receiver)
    const { code } = await startReceiving(RECEIVER.id, ORG)
    on(giver)
    const offer = await makeOffer({
      userId: GIVER.id,
      organizationId: ORG,
      keychainId: KEYCHAIN,
      receiveCode: code,
    })
    on(receiver)
    const table = (await withDb(async (db) => db)).handovers
    vi.spyOn(table, 'add').mockRejectedValueOnce(new Error('Disk full'))
    const input = { userId: RECEIVER.id, organizationId: ORG, offerCode: offer.ok ? offer.offerCode : '' }
    await expect(acceptOffer(input)).rejects.toThrow('Disk full')
    expect(inFlight.size).toBe(0)
    expect(await outbox()).toEqual([])
    expect(await custodianShown()).toBe(GIVER.id)
    expect(await withDb((db) => db.meta.get(`handover-receiving:${RECEIVER.id}`))).toBeDefined()
  })
})

describe('what the receiver’s phone refuses', () => {
  /** An offer from the giver's phone for the receiver's current receive code. */
  async function offered(overrides: { receiveCode?: string } = {}) {
    offline()
    on(receiver)
    const { code } = await startReceiving(RECEIVER.id, ORG)
    on(giver)
    const offer = await makeOffer({
      userId: GIVER.id,
      organizationId: ORG,
      keychainId: KEYCHAIN,
      receiveCode: overrides.receiveCode ?? code,
    })
    if (!offer.ok) throw new Error(offer.reason)
    on(receiver)
    return offer.offerCode
  }
  const accept = (offerCode: string, organizationId = ORG) =>
    acceptOffer({ userId: RECEIVER.id, organizationId, offerCode })

  const refusedAndNothingKept = async (offerCode: string, reason: string, organizationId = ORG) => {
    on(receiver)
    expect(await accept(offerCode, organizationId)).toEqual({ ok: false, reason })
    expect(await outbox()).toEqual([])
    expect(await localHandovers(RECEIVER.id, ORG)).toEqual([])
  }

  it('an offer made for an earlier receive code of this phone (wrong nonce)', async () => {
    await bothSynced()
    const offerCode = await offered()
    await startReceiving(RECEIVER.id, ORG)
    await refusedAndNothingKept(offerCode, 'not_for_this_device')
  })

  it('an offer when this phone shows no receive code', async () => {
    await bothSynced()
    const offerCode = await offered()
    await withDb((db) => db.meta.delete(`handover-receiving:${RECEIVER.id}`))
    await refusedAndNothingKept(offerCode, 'not_for_this_device')
  })

  it('an offer read in another organization than its own or the receive code’s', async () => {
    await bothSynced()
    const offerCode = await offered()
    await refusedAndNothingKept(offerCode, 'not_for_this_device', OTHER_ORG)
    // The receive code was shown in another organization.
    const again = await offered()
    await withDb((db) =>
      db.meta.put({
        key: `handover-receiving:${RECEIVER.id}`,
        value: JSON.stringify({ organizationId: OTHER_ORG, nonce: parseOffer(again)!.value.receiverNonce }),
      }),
    )
    await refusedAndNothingKept(again, 'not_for_this_device')
  })

  it('an offer for another device, even of the same person', async () => {
    const third = await phone('third-phone', THIRD)
    const second = await phone('second-phone', RECEIVER)
    const keys = [keyOf(giver), keyOf(receiver), keyOf(third), keyOf(second)]
    for (const each of [giver, receiver, third, second]) {
      on(each)
      await sync(each, { keychains: [held(GIVER, 3)], deviceKeys: keys })
    }
    const offerCode = await offered()
    on(third)
    await startReceiving(THIRD.id, ORG)
    expect(await acceptOffer({ userId: THIRD.id, organizationId: ORG, offerCode })).toEqual({
      ok: false,
      reason: 'not_for_this_device',
    })
    on(second)
    // Its own receive code with the same nonce: still not the device the offer names.
    await withDb((db) =>
      db.meta.put({
        key: `handover-receiving:${RECEIVER.id}`,
        value: JSON.stringify({ organizationId: ORG, nonce: parseOffer(offerCode)!.value.receiverNonce }),
      }),
    )
    expect(await acceptOffer({ userId: RECEIVER.id, organizationId: ORG, offerCode })).toEqual({
      ok: false,
      reason: 'not_for_this_device',
    })
    expect(await outbox()).toEqual([])
  })

  it('an offer whose giver’s key the mirror does not have', async () => {
    await bothSynced()
    const offerCode = await offered()
    await sync(receiver, { keychains: [held(GIVER, 3)], deviceKeys: [keyOf(receiver)] })
    await refusedAndNothingKept(offerCode, 'unknown_device')
  })

  it('an offer whose giver’s key is another person’s', async () => {
    await bothSynced()
    const offerCode = await offered()
    await sync(receiver, {
      keychains: [held(GIVER, 3)],
      deviceKeys: [keyOf(receiver), keyOf(giver, { userId: THIRD.id, person: THIRD })],
    })
    await refusedAndNothingKept(offerCode, 'wrong_device')
  })

  it('an offer with one character changed (bad signature)', async () => {
    await bothSynced()
    const offerCode = await offered()
    const signature = offerCode.slice(offerCode.lastIndexOf('|') + 1)
    const middle = 20
    const changed = signature[middle] === 'A' ? 'B' : 'A'
    const forged = `${offerCode.slice(0, offerCode.length - signature.length)}${signature.slice(0, middle)}${changed}${signature.slice(middle + 1)}`
    expect(parseOffer(forged)).not.toBeNull()
    await refusedAndNothingKept(forged, 'bad_signature')
    // A changed base: the text no longer matches its signature.
    const rebased = offerCode.replace(/\|3\|(\d+)\|/, '|2|$1|')
    expect(parseOffer(rebased)?.value.base).toBe(2)
    await refusedAndNothingKept(rebased, 'bad_signature')
  })

  it('a code that is no offer', async () => {
    await bothSynced()
    const offerCode = await offered()
    await refusedAndNothingKept(`${offerCode}x|`, 'malformed')
    await refusedAndNothingKept('R-ABCD-EFGH-JKMN-PQRS', 'malformed')
  })

  it('an offer signed by a key revoked before it was made, or expired', async () => {
    await bothSynced()
    const offerCode = await offered()
    const at = parseOffer(offerCode)!.value.at
    await sync(receiver, {
      keychains: [held(GIVER, 3)],
      deviceKeys: [keyOf(receiver), keyOf(giver, { revokedAt: new Date(at).toISOString() })],
    })
    await refusedAndNothingKept(offerCode, 'device_revoked')
    await sync(receiver, {
      keychains: [held(GIVER, 3)],
      deviceKeys: [keyOf(receiver), keyOf(giver, { expiresAt: new Date(at).toISOString() })],
    })
    await refusedAndNothingKept(offerCode, 'key_expired')
    // Revoked after the offer was made: it was valid when it signed.
    await sync(receiver, {
      keychains: [held(GIVER, 3)],
      deviceKeys: [keyOf(receiver), keyOf(giver, { revokedAt: new Date(at + 1).toISOString() })],
    })
    expect(await accept(offerCode)).toMatchObject({ ok: true })
  })

  it('an offer of a keychain the mirror does not know', async () => {
    await bothSynced({ receiver: null })
    await refusedAndNothingKept(await offered(), 'keychain_unknown')
  })

  it('an offer of a keychain of another organization, or one a pairing still waits to make', async () => {
    await bothSynced()
    const offerCode = await offered()
    await withDb(async (db) => {
      const row = await db.keychains.get(KEYCHAIN)
      await db.keychains.put({ ...row!, organizationId: OTHER_ORG })
    })
    await refusedAndNothingKept(offerCode, 'keychain_unknown')
    await withDb(async (db) => {
      const row = await db.keychains.get(KEYCHAIN)
      await db.keychains.put({ ...row!, organizationId: ORG, waiting: true })
    })
    await refusedAndNothingKept(offerCode, 'keychain_unknown')
  })

  it('an offer based on a custody change older than the mirror knows', async () => {
    await bothSynced({ receiver: held(GIVER, 4) })
    await refusedAndNothingKept(await offered(), 'conflict')
  })

  it('takes an offer based on the change the mirror knows, or a later one', async () => {
    await bothSynced({ receiver: held(GIVER, 2) })
    expect(await accept(await offered())).toMatchObject({ ok: true })
  })

  it('an offer the person made to themselves', async () => {
    const second = await phone('second-phone', RECEIVER)
    const keys = [keyOf(giver), keyOf(receiver), keyOf(second)]
    for (const each of [receiver, second]) {
      on(each)
      await sync(each, { keychains: [held(RECEIVER, 3)], deviceKeys: keys })
    }
    offline()
    on(receiver)
    const { code } = await startReceiving(RECEIVER.id, ORG)
    on(second)
    expect(
      await makeOffer({ userId: RECEIVER.id, organizationId: ORG, keychainId: KEYCHAIN, receiveCode: code }),
    ).toEqual({ ok: false, reason: 'same_person' })
  })

  it('an offer from another device of the same person', async () => {
    await bothSynced()
    const offerCode = await offered()
    const own = await stranger(RECEIVER)
    const mine = await own.sign(
      offerText({ ...parseOffer(offerCode)!.value, giverId: RECEIVER.id, giverDeviceId: own.id }),
    )
    await sync(receiver, { keychains: [held(RECEIVER, 3)], deviceKeys: [keyOf(receiver), own.mirrored] })
    await refusedAndNothingKept(mine, 'same_person')
  })

  it('an offer whose giver’s key the mirror holds for another organization', async () => {
    await bothSynced()
    const offerCode = await offered()
    await withDb(async (db) => {
      const key = await db.deviceKeys.get(giver.deviceId)
      await db.deviceKeys.put({ ...key!, organizationId: OTHER_ORG })
    })
    await refusedAndNothingKept(offerCode, 'unknown_device')
  })

  it('an offer of another organization, read where the receive code was shown', async () => {
    await bothSynced()
    const offerCode = await offered()
    const { receiverNonce } = parseOffer(offerCode)!.value
    await withDb((db) =>
      db.meta.put({
        key: `handover-receiving:${RECEIVER.id}`,
        value: JSON.stringify({ organizationId: OTHER_ORG, nonce: receiverNonce }),
      }),
    )
    await refusedAndNothingKept(offerCode, 'not_for_this_device', OTHER_ORG)
  })

  it('an offer naming someone else on this device', async () => {
    await bothSynced()
    const offerCode = await offered()
    const text = offerText({ ...parseOffer(offerCode)!.value, receiverId: THIRD.id })
    const forOther = await signedOn(giver, text)
    await refusedAndNothingKept(forOther, 'not_for_this_device')
  })

  it('any offer while this phone has no key that may sign', async () => {
    await bothSynced()
    const offerCode = await offered()
    await withDb(async (db) => {
      const key = await db.deviceKeyPairs.get(RECEIVER.id)
      await db.deviceKeyPairs.put({ ...key!, privateKey: null })
    })
    await refusedAndNothingKept(offerCode, 'device_not_ready')
  })
})

describe('what the giver’s phone refuses when making an offer', () => {
  async function receiveCode() {
    offline()
    on(receiver)
    const { code } = await startReceiving(RECEIVER.id, ORG)
    on(giver)
    return code
  }
  const offer = (receiveCode: string, keychainId = KEYCHAIN) =>
    makeOffer({ userId: GIVER.id, organizationId: ORG, keychainId, receiveCode })

  it('what is no receive code', async () => {
    await bothSynced()
    on(giver)
    for (const typed of ['', 'hello', 'R-ABCD-EFGH-JKMN', 'X-ABCD-EFGH-JKMN-PQRS', 'R-ABCD-EFGH-JKMN-PQRU'])
      expect(await offer(typed)).toEqual({ ok: false, reason: 'not_a_receive_code' })
  })

  it('a keychain someone else holds, or nobody', async () => {
    await bothSynced({ giver: held(THIRD, 3) })
    expect(await offer(await receiveCode())).toEqual({ ok: false, reason: 'not_holder' })
    await sync(giver, { keychains: [held(null, 3)], deviceKeys: [keyOf(giver), keyOf(receiver)] })
    expect(await offer(await receiveCode())).toEqual({ ok: false, reason: 'not_holder' })
  })

  it('a keychain it already handed over on this phone', async () => {
    await bothSynced()
    await handOver()
    expect(await offer(await receiveCode())).toEqual({ ok: false, reason: 'not_holder' })
  })

  it('a keychain the mirror does not know', async () => {
    await bothSynced({ giver: null })
    expect(await offer(await receiveCode())).toEqual({ ok: false, reason: 'keychain_unknown' })
  })

  it.each([['OUT'], ['OVERDUE']] as const)('a keychain out on a transfer (%s)', async (status) => {
    await bothSynced({ giver: held(GIVER, 3, { status }) })
    expect(await offer(await receiveCode())).toEqual({ ok: false, reason: 'on_transfer' })
  })

  it.each([['TRANSFERRED'], ['RETURNING']] as const)('a keychain whose transfer is %s', async (status) => {
    await bothSynced()
    on(giver)
    await mirrorTransfers(
      [
        transfer('00000000-0000-4000-8000-0000000000f1', {
          keychain: { id: KEYCHAIN, name: 'Cave', tags: [] },
          recipient: GIVER,
          status,
        }),
      ],
      GIVER.id,
    )
    expect(await offer(await receiveCode())).toEqual({ ok: false, reason: 'on_transfer' })
  })

  it('takes a keychain with a transfer scheduled, or one done', async () => {
    await bothSynced({ giver: held(GIVER, 3, { status: 'SCHEDULED' }) })
    on(giver)
    await mirrorTransfers(
      [
        transfer('00000000-0000-4000-8000-0000000000f1', {
          keychain: { id: KEYCHAIN, name: 'Cave', tags: [] },
          status: 'RETURNED',
        }),
      ],
      GIVER.id,
    )
    expect(await offer(await receiveCode())).toMatchObject({ ok: true })
  })

  it('a receive code of a device the mirror does not know', async () => {
    await bothSynced()
    const code = await receiveCode()
    const other = formatReceiveCode({ fingerprint: 'ZZZZZZZZ', nonce: parseReceiveCode(code)!.nonce })
    expect(await offer(other)).toEqual({ ok: false, reason: 'unknown_device' })
    // Known in another organization only.
    await withDb(async (db) => {
      const key = await db.deviceKeys.get(receiver.deviceId)
      await db.deviceKeys.put({ ...key!, organizationId: OTHER_ORG })
    })
    expect(await offer(code)).toEqual({ ok: false, reason: 'unknown_device' })
  })

  it('a receive code of a device revoked or expired', async () => {
    await bothSynced()
    const code = await receiveCode()
    await sync(giver, {
      keychains: [held(GIVER, 3)],
      deviceKeys: [keyOf(giver), keyOf(receiver, { revokedAt: new Date(Date.now() + DAY).toISOString() })],
    })
    expect(await offer(code)).toEqual({ ok: false, reason: 'device_revoked' })
    await sync(giver, {
      keychains: [held(GIVER, 3)],
      deviceKeys: [keyOf(giver), keyOf(receiver, { expiresAt: new Date(Date.now() - 1).toISOString() })],
    })
    expect(await offer(code)).toEqual({ ok: false, reason: 'key_expired' })
    await sync(giver, {
      keychains: [held(GIVER, 3)],
      deviceKeys: [keyOf(giver), keyOf(receiver, { expiresAt: new Date(Date.now() + 60_000).toISOString() })],
    })
    expect(await offer(code)).toMatchObject({ ok: true })
  })

  it('a receive code of a device whose key expires this very moment', async () => {
    await bothSynced()
    const code = await receiveCode()
    const now = Date.now()
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(now)
    await sync(giver, {
      keychains: [held(GIVER, 3)],
      deviceKeys: [keyOf(giver), keyOf(receiver, { expiresAt: new Date(now).toISOString() })],
    })
    expect(await offer(code)).toEqual({ ok: false, reason: 'key_expired' })
  })

  it('prefers the active key when a revoked one has the same fingerprint', async () => {
    await bothSynced()
    const code = await receiveCode()
    // Listed first whatever the order it came in (the lowest id).
    const revoked = keyOf(receiver, {
      id: '00000000-0000-4000-8000-000000000000',
      revokedAt: new Date().toISOString(),
    })
    for (const keys of [
      [revoked, keyOf(receiver)],
      [keyOf(receiver), revoked],
    ]) {
      await sync(giver, { keychains: [held(GIVER, 3)], deviceKeys: [keyOf(giver), ...keys] })
      const made = await offer(code)
      if (!made.ok) throw new Error(made.reason)
      expect(parseOffer(made.offerCode)?.value.receiverDeviceId).toBe(receiver.deviceId)
    }
  })

  it('its own receive code', async () => {
    await bothSynced()
    on(giver)
    const { code } = await startReceiving(GIVER.id, ORG)
    expect(await offer(code)).toEqual({ ok: false, reason: 'same_person' })
  })

  it('anything while this phone has no registered key, or a revoked one', async () => {
    await bothSynced()
    const code = await receiveCode()
    await withDb(async (db) => {
      const key = await db.deviceKeyPairs.get(GIVER.id)
      await db.deviceKeyPairs.put({ ...key!, registeredAt: null, expiresAt: null })
    })
    expect(await offer(code)).toEqual({ ok: false, reason: 'device_not_ready' })
    await sync(giver, {
      keychains: [held(GIVER, 3)],
      deviceKeys: [keyOf(giver, { revokedAt: new Date().toISOString() }), keyOf(receiver)],
    })
    expect(await offer(code)).toEqual({ ok: false, reason: 'device_not_ready' })
  })

  it('forgets offers never accepted once the server would refuse them, and keeps the others', async () => {
    await bothSynced()
    const code = await receiveCode()
    const start = Date.now()
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(start)
    const first = await offer(code)
    vi.setSystemTime(start + 30 * DAY)
    const second = await offer(code)
    const pending = async () =>
      (await withDb((db) => db.pendingOffers.toArray())).map((each) => each.offerId).sort()
    const ids = (...made: Awaited<ReturnType<typeof offer>>[]) =>
      made.map((each) => each.ok && each.offerId).sort()
    expect(await pending()).toEqual(ids(first, second))
    vi.setSystemTime(start + 30 * DAY + 1)
    const third = await offer(code)
    expect(await pending()).toEqual(ids(second, third))
  })
})

describe('what the giver’s phone refuses when completing', () => {
  async function offered() {
    offline()
    on(receiver)
    const { code } = await startReceiving(RECEIVER.id, ORG)
    on(giver)
    const offer = await makeOffer({
      userId: GIVER.id,
      organizationId: ORG,
      keychainId: KEYCHAIN,
      receiveCode: code,
    })
    if (!offer.ok) throw new Error(offer.reason)
    return offer
  }
  const complete = (acceptanceCode: string, organizationId = ORG) =>
    completeOffer({ userId: GIVER.id, organizationId, acceptanceCode })

  const refusedAndNothingKept = async (acceptanceCode: string, reason: string, organizationId = ORG) => {
    on(giver)
    expect(await complete(acceptanceCode, organizationId)).toEqual({ ok: false, reason })
    expect(await outbox()).toEqual([])
    expect(await custodianShown()).toBe(GIVER.id)
  }

  it('an acceptance when this phone offered nothing (in this organization)', async () => {
    await bothSynced()
    const someone = await stranger(RECEIVER)
    const offerId = await offerIdOf('another offer')
    const acceptanceCode = await someone.sign(
      acceptanceText({ offerId, receiverDeviceId: someone.id, at: 1 }),
    )
    await refusedAndNothingKept(acceptanceCode, 'no_pending_offer')
    await offered()
    await refusedAndNothingKept(acceptanceCode, 'not_for_this_offer')
    await refusedAndNothingKept(acceptanceCode, 'no_pending_offer', OTHER_ORG)
  })

  it('an acceptance of another offer', async () => {
    await bothSynced()
    const offer = await offered()
    on(receiver)
    const accepted = await acceptOffer({
      userId: RECEIVER.id,
      organizationId: ORG,
      offerCode: offer.offerCode,
    })
    if (!accepted.ok) throw new Error(accepted.reason)
    // Another offer pending on the giver's phone only: that acceptance is of an offer it no longer has.
    on(giver)
    await withDb((db) => db.pendingOffers.clear())
    await offered()
    await refusedAndNothingKept(accepted.acceptanceCode, 'not_for_this_offer')
  })

  it('an acceptance from another device than the offer names', async () => {
    await bothSynced()
    const offer = await offered()
    on(receiver)
    const accepted = await acceptOffer({
      userId: RECEIVER.id,
      organizationId: ORG,
      offerCode: offer.offerCode,
    })
    if (!accepted.ok) throw new Error(accepted.reason)
    const parsed = parseAcceptance(accepted.acceptanceCode)!
    const impostor = await stranger(RECEIVER)
    const forged = await impostor.sign(
      acceptanceText({ offerId: offer.offerId, receiverDeviceId: impostor.id, at: parsed.value.at }),
    )
    await refusedAndNothingKept(forged, 'not_for_this_offer')
  })

  it('an acceptance with one character changed, or that is none', async () => {
    await bothSynced()
    const offer = await offered()
    on(receiver)
    const accepted = await acceptOffer({
      userId: RECEIVER.id,
      organizationId: ORG,
      offerCode: offer.offerCode,
    })
    if (!accepted.ok) throw new Error(accepted.reason)
    const code = accepted.acceptanceCode
    const at = parseAcceptance(code)!.value.at
    const forged = code.replace(`|${at}|`, `|${at + 1}|`)
    await refusedAndNothingKept(forged, 'bad_signature')
    await refusedAndNothingKept(offer.offerCode, 'malformed')
  })

  it('an acceptance by a key the mirror does not have, or revoked', async () => {
    await bothSynced()
    const offer = await offered()
    on(receiver)
    const accepted = await acceptOffer({
      userId: RECEIVER.id,
      organizationId: ORG,
      offerCode: offer.offerCode,
    })
    if (!accepted.ok) throw new Error(accepted.reason)
    on(giver)
    await sync(giver, { keychains: [held(GIVER, 3)], deviceKeys: [keyOf(giver)] })
    await refusedAndNothingKept(accepted.acceptanceCode, 'unknown_device')
    await sync(giver, {
      keychains: [held(GIVER, 3)],
      deviceKeys: [keyOf(giver), keyOf(receiver, { revokedAt: new Date(0).toISOString() })],
    })
    await refusedAndNothingKept(accepted.acceptanceCode, 'device_revoked')
  })
})

describe('the server’s answer', () => {
  it('at once when online: applied on the phone that sent it, with the pair and the outbox id as Idempotency-Key', async () => {
    await bothSynced()
    offline()
    on(receiver)
    const { code } = await startReceiving(RECEIVER.id, ORG)
    on(giver)
    const offer = await makeOffer({
      userId: GIVER.id,
      organizationId: ORG,
      keychainId: KEYCHAIN,
      receiveCode: code,
    })
    if (!offer.ok) throw new Error(offer.reason)
    on(receiver)
    online()
    const accepted = await acceptOffer({
      userId: RECEIVER.id,
      organizationId: ORG,
      offerCode: offer.offerCode,
    })
    if (!accepted.ok) throw new Error(accepted.reason)
    await vi.waitFor(async () => expect((await localHandover(offer.offerId))?.state).toBe('APPLIED'))
    expect(handoverCalls()).toHaveLength(1)
    const [, init] = handoverCalls()[0]!
    const [item] = await outbox()
    expect(JSON.parse(init!.body as string)).toEqual({
      offer: offer.offerCode,
      acceptance: accepted.acceptanceCode,
    })
    expect(init!.headers).toMatchObject({ 'Idempotency-Key': item!.id, 'X-From-Queue': '0' })
    expect(item).toMatchObject({ status: 'sent' })
    expect(await custodianShown()).toBe(RECEIVER.id)
    expect(inFlight.size).toBe(0)
  })

  it('at once when online: refused, the keychain shown as before, the reason kept, nothing left to send', async () => {
    await bothSynced()
    handoverAnswer = refusedWith('receiver_not_allowed')
    offline()
    on(receiver)
    const { code } = await startReceiving(RECEIVER.id, ORG)
    on(giver)
    const offer = await makeOffer({
      userId: GIVER.id,
      organizationId: ORG,
      keychainId: KEYCHAIN,
      receiveCode: code,
    })
    if (!offer.ok) throw new Error(offer.reason)
    on(receiver)
    online()
    await acceptOffer({ userId: RECEIVER.id, organizationId: ORG, offerCode: offer.offerCode })
    await vi.waitFor(async () => expect((await localHandover(offer.offerId))?.state).toBe('REFUSED'))
    expect(await localHandover(offer.offerId)).toMatchObject({ reason: 'receiver_not_allowed' })
    expect(await outbox()).toEqual([])
    expect(await mirroredKeychain(KEYCHAIN)).toMatchObject({ custodian: GIVER, status: 'HELD' })
  })

  it('replayed from the outbox: APPLIED on both phones, the second answered 200', async () => {
    await bothSynced()
    const { offer } = await handOver()
    online()
    on(receiver)
    expect(await replay(RECEIVER.id)).toMatchObject({ sent: 1 })
    handoverAnswer = (body) => applied(body, 200)
    on(giver)
    expect(await replay(GIVER.id)).toMatchObject({ sent: 1 })
    for (const each of [giver, receiver]) {
      on(each)
      expect(await localHandover(offer.offerId)).toMatchObject({ state: 'APPLIED', reason: null })
      expect(await custodianShown()).toBe(RECEIVER.id)
      expect(await outbox()).toMatchObject([{ status: 'sent', attempts: 1 }])
    }
    const [first, second] = handoverCalls()
    expect(first![1]!.headers).toMatchObject({ 'X-From-Queue': '1' })
    expect(JSON.parse(first![1]!.body as string)).toEqual(JSON.parse(second![1]!.body as string))
  })

  it('replayed from the outbox: REFUSED with its reason, never sent again, the keychain shown as before', async () => {
    await bothSynced()
    const { offer } = await handOver()
    online()
    handoverAnswer = refusedWith('conflict')
    for (const each of [giver, receiver]) {
      on(each)
      expect(await replay(each.user.id)).toMatchObject({ refused: 1 })
      expect(await localHandover(offer.offerId)).toMatchObject({ state: 'REFUSED', reason: 'conflict' })
      expect(await mirroredKeychain(KEYCHAIN)).toMatchObject({ custodian: GIVER, status: 'HELD' })
      expect(await outbox()).toEqual([])
      expect(await replay(each.user.id)).toMatchObject({ sent: 0, refused: 0 })
    }
    expect(handoverCalls()).toHaveLength(2)
  })

  it('refused otherwise (not the giver’s or the receiver’s session): kept in the sync panel, marked refused', async () => {
    await bothSynced()
    const { offer } = await handOver()
    online()
    handoverAnswer = () => Response.json({ error: { code: 'forbidden', message: 'No.' } }, { status: 403 })
    on(giver)
    await replay(GIVER.id)
    expect(await localHandover(offer.offerId)).toMatchObject({ state: 'REFUSED', reason: null })
    expect(await outbox()).toMatchObject([{ status: 'failed', error: { status: 403, code: 'forbidden' } }])
    expect(await custodianShown()).toBe(GIVER.id)
  })

  it('a refusal does not put back a keychain someone else has since been shown holding', async () => {
    await bothSynced()
    const { offer } = await handOver()
    on(giver)
    await withDb(async (db) => {
      const row = await db.keychains.get(KEYCHAIN)
      await db.keychains.put({ ...row!, detail: { ...row!.detail!, custodian: THIRD } })
    })
    const [item] = await outbox()
    await settleHandover(item!, {
      kind: 'refused',
      status: 409,
      code: 'handover_refused',
      message: '',
      reason: 'conflict',
    })
    expect(await custodianShown()).toBe(THIRD.id)
    expect(await localHandover(offer.offerId)).toMatchObject({ state: 'REFUSED', reason: 'conflict' })
  })

  it('a handover refused once is not put back again by a later answer', async () => {
    await bothSynced()
    const { offer } = await handOver()
    on(giver)
    const [item] = await outbox()
    const refusal = { kind: 'refused', status: 403, code: 'forbidden', message: '' } as const
    await settleHandover(item!, refusal)
    // Meanwhile the server's feed shows the receiver holding it (the other phone's send).
    await sync(giver, { keychains: [held(RECEIVER, 4)], deviceKeys: [keyOf(giver), keyOf(receiver)] })
    await settleHandover(item!, refusal)
    expect(await custodianShown()).toBe(RECEIVER.id)
    // A retry from the sync panel that the server then applies.
    await settleHandover(item!, { kind: 'sent', result: { id: offer.offerId } as Handover })
    expect(await localHandover(offer.offerId)).toMatchObject({ state: 'APPLIED', reason: null })
  })

  it('claims the item while it tries it at once, so no drain sends it meanwhile', async () => {
    await bothSynced()
    const during: number[] = []
    handoverAnswer = (body) => {
      during.push(inFlight.size)
      return applied(body)
    }
    offline()
    on(receiver)
    const { code } = await startReceiving(RECEIVER.id, ORG)
    on(giver)
    const offer = await makeOffer({
      userId: GIVER.id,
      organizationId: ORG,
      keychainId: KEYCHAIN,
      receiveCode: code,
    })
    if (!offer.ok) throw new Error(offer.reason)
    on(receiver)
    online()
    await acceptOffer({ userId: RECEIVER.id, organizationId: ORG, offerCode: offer.offerCode })
    await vi.waitFor(async () => expect((await localHandover(offer.offerId))?.state).toBe('APPLIED'))
    expect(during).toEqual([1])
    expect(inFlight.size).toBe(0)
  })

  it('sends once when the offer is accepted twice at the same time online', async () => {
    await bothSynced()
    const warn = vi.spyOn(console, 'warn')
    offline()
    on(receiver)
    const { code } = await startReceiving(RECEIVER.id, ORG)
    on(giver)
    const offer = await makeOffer({
      userId: GIVER.id,
      organizationId: ORG,
      keychainId: KEYCHAIN,
      receiveCode: code,
    })
    if (!offer.ok) throw new Error(offer.reason)
    on(receiver)
    online()
    const input = { userId: RECEIVER.id, organizationId: ORG, offerCode: offer.offerCode }
    await Promise.all([acceptOffer(input), acceptOffer(input)])
    await vi.waitFor(async () => expect((await localHandover(offer.offerId))?.state).toBe('APPLIED'))
    expect(handoverCalls()).toHaveLength(1)
    expect(warn).not.toHaveBeenCalled()
  })

  it('only warns when the first try fails on the device', async () => {
    await bothSynced()
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    offline()
    on(receiver)
    const { code } = await startReceiving(RECEIVER.id, ORG)
    on(giver)
    const offer = await makeOffer({
      userId: GIVER.id,
      organizationId: ORG,
      keychainId: KEYCHAIN,
      receiveCode: code,
    })
    if (!offer.ok) throw new Error(offer.reason)
    on(receiver)
    online()
    const table = (await withDb(async (db) => db)).outbox
    vi.spyOn(table, 'update').mockRejectedValueOnce(new Error('Disk full'))
    const accepted = await acceptOffer({
      userId: RECEIVER.id,
      organizationId: ORG,
      offerCode: offer.offerCode,
    })
    expect(accepted.ok).toBe(true)
    await vi.waitFor(() => expect(warn).toHaveBeenCalledWith('Handover send failed', expect.any(Error)))
    expect(await localHandover(offer.offerId)).toMatchObject({ state: 'queued' })
    expect(inFlight.size).toBe(0)
  })

  it('a refusal puts back the keychain lists’ row as it was', async () => {
    // The giver's phone knows the keychain from its list only (no custody change: base 0), as does the receiver's.
    await bothSynced({ giver: null, receiver: held(GIVER, 0) })
    on(giver)
    const listed = {
      id: KEYCHAIN,
      name: 'Cave',
      custodian: GIVER,
      keyCount: 1,
      tagCodes: [],
      updatedAt: '2026-11-01T00:00:00.000Z',
      status: 'HELD' as const,
      whereabouts: 'AT_HOME' as const,
    }
    await mirrorKeychainSummaries(ORG, [listed])
    const { offer } = await handOver()
    on(giver)
    expect(await mirroredKeychainSummaries(ORG)).toEqual([
      { ...listed, custodian: RECEIVER, whereabouts: 'HELD' },
    ])
    const [item] = await outbox()
    await settleHandover(item!, {
      kind: 'refused',
      status: 409,
      code: 'handover_refused',
      message: '',
      reason: 'conflict',
    })
    expect(await mirroredKeychainSummaries(ORG)).toEqual([listed])
    expect(await withDb((db) => db.keychains.get(KEYCHAIN))).toMatchObject({ detail: null })
    expect(await localHandover(offer.offerId)).toMatchObject({ state: 'REFUSED' })
  })

  it('a refusal puts nothing back once the keychain left the mirror, or while nobody holds it', async () => {
    const refusal = {
      kind: 'refused',
      status: 409,
      code: 'handover_refused',
      message: '',
      reason: 'conflict',
    } as const
    await bothSynced()
    await handOver()
    on(giver)
    const [item] = await outbox()
    await withDb((db) => db.keychains.delete(KEYCHAIN))
    await settleHandover(item!, refusal)
    expect(await withDb((db) => db.keychains.get(KEYCHAIN))).toBeUndefined()
    on(receiver)
    const [received] = await outbox()
    await withDb(async (db) => {
      const row = await db.keychains.get(KEYCHAIN)
      await db.keychains.put({ ...row!, detail: { ...row!.detail!, custodian: null } })
    })
    await settleHandover(received!, refusal)
    expect((await mirroredKeychain(KEYCHAIN))?.custodian).toBeNull()
    expect(await localHandover(received!.value)).toMatchObject({ state: 'REFUSED' })
  })

  it('a refusal puts back nothing the mirror had no row for, nor into a row without content', async () => {
    await bothSynced({ receiver: null })
    on(receiver)
    await mirrorTransfers(
      [
        transfer('00000000-0000-4000-8000-0000000000f1', {
          keychain: { id: KEYCHAIN, name: 'Cave', tags: [] },
          recipient: RECEIVER,
        }),
      ],
      RECEIVER.id,
    )
    await handOver()
    on(receiver)
    await withDb((db) =>
      db.keychains.put({ id: KEYCHAIN, organizationId: ORG, summary: null, detail: held(RECEIVER, 4) }),
    )
    const [item] = await outbox()
    await settleHandover(item!, {
      kind: 'refused',
      status: 409,
      code: 'handover_refused',
      message: '',
      reason: 'conflict',
    })
    expect(await custodianShown()).toBe(RECEIVER.id)
    await withDb((db) => db.keychains.put({ id: KEYCHAIN, organizationId: ORG, summary: null, detail: null }))
    const handover = await withDb((db) => db.handovers.toArray())
    await withDb((db) => db.handovers.put({ ...handover[0]!, state: 'queued', before: { custodian: GIVER } }))
    await settleHandover(item!, { kind: 'refused', status: 403, code: 'forbidden', message: '' })
    expect(await withDb((db) => db.keychains.get(KEYCHAIN))).toMatchObject({ detail: null, summary: null })
  })

  it('no answer: kept queued for the next replay', async () => {
    await bothSynced()
    const { offer } = await handOver()
    online()
    handoverAnswer = () => {
      throw new TypeError('Failed to fetch')
    }
    on(giver)
    expect(await replay(GIVER.id)).toMatchObject({ sent: 0, stoppedUnreachable: true })
    handoverAnswer = () => Response.json({ error: { code: 'internal_error', message: 'x' } }, { status: 500 })
    expect(await replay(GIVER.id)).toMatchObject({ sent: 0, stoppedUnreachable: true })
    expect(await localHandover(offer.offerId)).toMatchObject({ state: 'queued' })
    expect(await outbox()).toMatchObject([{ status: 'pending' }])
    expect(await custodianShown()).toBe(RECEIVER.id)
  })

  it('answers of items that are not this phone’s handovers change nothing', async () => {
    await bothSynced()
    const { offer } = await handOver()
    on(giver)
    const [item] = await outbox()
    await settleHandover(
      { ...item!, value: 'other' },
      { kind: 'refused', status: 409, code: 'conflict', message: '' },
    )
    await settleHandover({ ...item!, value: 'other' }, { kind: 'sent', result: { id: 'other' } as Handover })
    await settleHandover(item!, { kind: 'unreachable' })
    await settleHandover(item!, { kind: 'serverError', status: 500, code: 'x', message: '' })
    expect(await localHandover(offer.offerId)).toMatchObject({ state: 'queued' })
    expect(await localHandover('other')).toBeUndefined()
    expect(await withDb((db) => db.handovers.count())).toBe(1)
    expect(await outbox()).toHaveLength(1)
  })

  it('holds the mirror’s custodian while the handover was sent after the page was asked for', async () => {
    await bothSynced()
    await handOver()
    online()
    on(giver)
    const asked = new Date().toISOString()
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + 1000)
    await replay(GIVER.id)
    vi.setSystemTime(Date.now() + 1000)
    const state = await withDb((db) =>
      applySyncPage(db, {
        page: page({ keychains: [held(GIVER, 3)], deviceKeys: [keyOf(giver), keyOf(receiver)] }),
        userId: GIVER.id,
        expected: synced.get(giver.name) ?? null,
        requestedAt: asked,
        readsTags: true,
      }),
    )
    synced.set(giver.name, state)
    expect(await custodianShown()).toBe(RECEIVER.id)
    // A page asked for after the send is the server's word.
    await sync(giver, { keychains: [held(GIVER, 3)], deviceKeys: [keyOf(giver), keyOf(receiver)] })
    expect(await custodianShown()).toBe(GIVER.id)
  })
})

describe('another account on the phone', () => {
  it('forgets the account’s pending offers, keys of colleagues and answered handovers, keeps those still to send', async () => {
    await bothSynced()
    const { offer } = await handOver()
    on(giver)
    await withDb((db) =>
      db.pendingOffers.put({
        offerId: 'pending',
        userId: GIVER.id,
        organizationId: ORG,
        offerCode: offer.offerCode,
        offer: parseOffer(offer.offerCode)!.value,
        keychain: { id: KEYCHAIN, name: 'Cave' },
        giver: GIVER,
        receiver: RECEIVER,
        madeAt: new Date().toISOString(),
      }),
    )
    await claimMirror(THIRD.id)
    expect(await withDb((db) => db.pendingOffers.count())).toBe(0)
    expect(await withDb((db) => db.deviceKeys.count())).toBe(0)
    expect(await localHandovers(GIVER.id, ORG)).toHaveLength(1)
    on(receiver)
    const [item] = await outbox()
    await settleHandover(item!, { kind: 'sent', result: { id: offer.offerId } as Handover })
    await claimMirror(THIRD.id)
    expect(await localHandovers(RECEIVER.id, ORG)).toEqual([])
    // The device's own keys stay: they are no data of the account.
    expect(await withDb((db) => db.deviceKeyPairs.count())).toBe(1)
  })
})
