import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import {
  type HookScanResult,
  hookLabelUrl,
  type KeychainLocation,
  placeLabelUrl,
} from '../../../contract/places.ts'
import {
  makeKeychain,
  makeTags,
  organizationWithAdmin,
  signedInMember,
} from '../../../tests/server/fixtures.ts'
import { setupTestAppAtEpoch, TEST_PUBLIC_URL } from '../../../tests/server/harness.ts'
import { expectOneAnswerReplayed } from '../../../tests/server/idempotency.ts'
import { eventsOf, makeBoard, setHome } from '../../../tests/server/places.ts'
import { makeTransfer, pickup, scheduledTransfer } from '../../../tests/server/transfers.ts'
import { keychains } from '../../db/schema.ts'
import { whereabouts } from '../../shared/places.ts'

const t = setupTestAppAtEpoch()

async function location(cookie: string, keychainId: string): Promise<KeychainLocation> {
  const response = await t.get(`/api/keychains/${keychainId}/location`, { cookie })
  expect(response.status).toBe(200)
  return (await response.json()) as KeychainLocation
}

const hookScan = (cookie: string, keychainId: string, json: unknown, key: string = randomUUID()) =>
  t.post(`/api/keychains/${keychainId}/hook-scans`, {
    cookie,
    json,
    headers: { 'idempotency-key': key, 'x-from-queue': '1', 'x-client-time': t.clock.now().toISOString() },
  })

const label = (publicId: string) => hookLabelUrl(TEST_PUBLIC_URL, publicId)

/** An organization with its admin, a board "Tableau A" of 3 hooks and a keychain whose home is A-01. */
async function homedKeychain() {
  const { organization, admin } = await organizationWithAdmin(t)
  const { board, hooks } = await makeBoard(t, organization.id, { name: 'Tableau A' })
  const keychain = await makeKeychain(t, organization.id, 'Cave')
  await setHome(t, keychain.id, hooks[0]!.id)
  const ref = (index: number) => ({
    id: hooks[index]!.id,
    code: hooks[index]!.code,
    placeId: board.id,
    placeName: 'Tableau A',
  })
  return { organization, admin, board, hooks, keychain, ref }
}

describe('whereabouts', () => {
  const row = { custodianId: null, transferStatus: null, homeHookId: null, hookId: null } as const
  it.each([
    ['held by its custodian', { ...row, custodianId: 'u', homeHookId: 'h', hookId: 'h' }, 'HELD'],
    ['out on a transfer', { ...row, transferStatus: 'TRANSFERRED' as const }, 'HELD'],
    [
      'scheduled only, on its home',
      { ...row, transferStatus: 'SCHEDULED' as const, homeHookId: 'h' },
      'AT_HOME',
    ],
    ['home and never seen', { ...row, homeHookId: 'h' }, 'AT_HOME'],
    ['seen on its home', { ...row, homeHookId: 'h', hookId: 'h' }, 'AT_HOME'],
    ['seen on another hook', { ...row, homeHookId: 'h', hookId: 'x' }, 'MISPLACED'],
    ['no home, seen on a hook', { ...row, hookId: 'x' }, 'MISPLACED'],
    ['no home, never seen', row, 'UNKNOWN'],
  ])('%s: %s', (_, columns, expected) => {
    expect(whereabouts(columns)).toBe(expected)
  })
})

describe('GET /keychains/:id/location', () => {
  it('says where it is: unknown, at home, misplaced with where and by whom, held', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const keychain = await makeKeychain(t, organization.id, 'Loose')
    expect(await location(admin.cookie, keychain.id)).toEqual({
      whereabouts: 'UNKNOWN',
      home: null,
      seenOn: null,
      seenAt: null,
      seenBy: null,
    })
    const homed = await homedKeychain()
    expect(await location(homed.admin.cookie, homed.keychain.id)).toMatchObject({
      whereabouts: 'AT_HOME',
      home: homed.ref(0),
      seenOn: null,
    })
    await t.db
      .update(keychains)
      .set({ hookId: homed.hooks[2]!.id, hookSeenAt: t.clock.now(), hookSeenById: homed.admin.id })
      .where(eq(keychains.id, homed.keychain.id))
    expect(await location(homed.admin.cookie, homed.keychain.id)).toEqual({
      whereabouts: 'MISPLACED',
      home: homed.ref(0),
      seenOn: homed.ref(2),
      seenAt: t.clock.now().toISOString(),
      seenBy: expect.objectContaining({ id: homed.admin.id }),
    })
    await t.db
      .update(keychains)
      .set({ custodianId: homed.admin.id })
      .where(eq(keychains.id, homed.keychain.id))
    expect(await location(homed.admin.cookie, homed.keychain.id)).toMatchObject({
      whereabouts: 'HELD',
      home: homed.ref(0),
      seenOn: null,
      seenAt: null,
    })
  })

  it('answers 404 for another organization’s keychain and 403 to a contact', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const foreign = await organizationWithAdmin(t, 'Foreign')
    const theirs = await makeKeychain(t, foreign.organization.id)
    expect((await t.get(`/api/keychains/${theirs.id}/location`, { cookie: admin.cookie })).status).toBe(404)
    const contact = await signedInMember(t, organization.id, 'CONTACT')
    const own = await makeKeychain(t, organization.id)
    expect((await t.get(`/api/keychains/${own.id}/location`, { cookie: contact.cookie })).status).toBe(403)
  })
})

describe('PUT /keychains/:id/home', () => {
  it('sets, changes and clears the home, each change an event (none when nothing changes)', async () => {
    const { organization, admin, hooks, keychain, ref } = await homedKeychain()
    const put = (hookId: string | null) =>
      t.put(`/api/keychains/${keychain.id}/home`, { cookie: admin.cookie, json: { hookId } })
    const changed = await put(hooks[1]!.id)
    expect(changed.status).toBe(200)
    expect(await changed.json()).toMatchObject({ whereabouts: 'AT_HOME', home: ref(1) })
    expect((await put(hooks[1]!.id)).status).toBe(200)
    const cleared = await put(null)
    expect(await cleared.json()).toMatchObject({ whereabouts: 'UNKNOWN', home: null })
    const events = await eventsOf(t, organization.id, ['keychain.home_changed'])
    expect(events.map((event) => [event.keychainIds, event.payload])).toEqual([
      [[keychain.id], { home: { from: hooks[0]!.id, to: hooks[1]!.id } }],
      [[keychain.id], { home: { from: hooks[1]!.id, to: null } }],
    ])
  })

  it('answers 404 for another organization’s hook or keychain, 403 to a member, 400 for a bad body', async () => {
    const { organization, admin, keychain } = await homedKeychain()
    const foreign = await organizationWithAdmin(t, 'Foreign')
    const theirs = await makeBoard(t, foreign.organization.id, { count: 1 })
    const theirKeychain = await makeKeychain(t, foreign.organization.id)
    const put = (cookie: string, id: string, json: unknown) =>
      t.put(`/api/keychains/${id}/home`, { cookie, json })
    expect((await put(admin.cookie, keychain.id, { hookId: theirs.hooks[0]!.id })).status).toBe(404)
    expect((await put(admin.cookie, theirKeychain.id, { hookId: null })).status).toBe(404)
    expect((await put(admin.cookie, keychain.id, {})).status).toBe(400)
    expect((await put(admin.cookie, keychain.id, { hookId: 'A-01' })).status).toBe(400)
    const member = await signedInMember(t, organization.id, 'MEMBER')
    expect((await put(member.cookie, keychain.id, { hookId: null })).status).toBe(403)
    const [row] = await t.db.select().from(keychains).where(eq(keychains.id, keychain.id))
    expect(row!.homeHookId).not.toBeNull()
  })
})

describe('POST /keychains/:id/hook-scans', () => {
  it('its home hook: HOME, seen there by the caller, one keychain.hung event with the device’s time', async () => {
    const { organization, admin, hooks, keychain, ref } = await homedKeychain()
    const member = await signedInMember(t, organization.id, 'MEMBER')
    const response = await hookScan(member.cookie, keychain.id, { value: label(hooks[0]!.publicId) })
    expect(response.status).toBe(201)
    const body = (await response.json()) as HookScanResult
    expect(body).toEqual({
      outcome: 'HOME',
      location: {
        whereabouts: 'AT_HOME',
        home: ref(0),
        seenOn: ref(0),
        seenAt: t.clock.now().toISOString(),
        seenBy: expect.objectContaining({ id: member.id }),
      },
    })
    const [event] = await eventsOf(t, organization.id, ['keychain.hung'])
    expect(event).toMatchObject({
      actorId: member.id,
      keychainIds: [keychain.id],
      fromQueue: true,
      payload: { hookId: hooks[0]!.id, code: 'A-01', outcome: 'HOME' },
    })
    expect(event!.clientTime).not.toBeNull()
    expect(admin.id).not.toBe(member.id)
  })

  it('another hook: MISPLACED (recorded there); with makeHome by a manager: NEW_HOME', async () => {
    const { organization, hooks, keychain, ref } = await homedKeychain()
    const member = await signedInMember(t, organization.id, 'MEMBER')
    const misplaced = await hookScan(member.cookie, keychain.id, { value: `h:${hooks[2]!.publicId}` })
    expect(((await misplaced.json()) as HookScanResult).location).toMatchObject({
      whereabouts: 'MISPLACED',
      home: ref(0),
      seenOn: ref(2),
    })
    const refused = await hookScan(member.cookie, keychain.id, {
      value: label(hooks[2]!.publicId),
      makeHome: true,
    })
    expect(refused.status).toBe(403)
    const manager = await signedInMember(t, organization.id, 'MANAGER')
    const moved = await hookScan(manager.cookie, keychain.id, {
      value: label(hooks[2]!.publicId),
      makeHome: true,
    })
    expect(moved.status).toBe(201)
    expect(await moved.json()).toMatchObject({
      outcome: 'NEW_HOME',
      location: { whereabouts: 'AT_HOME', home: ref(2), seenOn: ref(2) },
    })
    const events = await eventsOf(t, organization.id, ['keychain.hung'])
    expect(events.map((event) => event.payload)).toEqual([
      { hookId: hooks[2]!.id, code: 'A-03', outcome: 'MISPLACED' },
      {
        hookId: hooks[2]!.id,
        code: 'A-03',
        outcome: 'NEW_HOME',
        home: { from: hooks[0]!.id, to: hooks[2]!.id },
      },
    ])
  })

  it('a replay of the same key answers the first answer and writes nothing; another body is 422', async () => {
    const { organization, admin, hooks, keychain } = await homedKeychain()
    const key = randomUUID()
    const json = { value: label(hooks[1]!.publicId) }
    const first = await hookScan(admin.cookie, keychain.id, json, key)
    t.clock.advance(60_000)
    const replay = await hookScan(admin.cookie, keychain.id, json, key)
    const body = (await expectOneAnswerReplayed([first, replay])) as HookScanResult
    expect(body.outcome).toBe('MISPLACED')
    expect(await eventsOf(t, organization.id, ['keychain.hung'])).toHaveLength(1)
    const [row] = await t.db.select().from(keychains).where(eq(keychains.id, keychain.id))
    expect(row!.hookSeenAt!.toISOString()).toBe(body.location.seenAt)
    const reused = await hookScan(admin.cookie, keychain.id, { value: label(hooks[0]!.publicId) }, key)
    expect(reused.status).toBe(422)
  })

  it('refuses (409 keychain_held) while someone holds it or it is out on a transfer; writes nothing', async () => {
    const { organization, admin, hooks, keychain } = await homedKeychain()
    await t.db.update(keychains).set({ custodianId: admin.id }).where(eq(keychains.id, keychain.id))
    const held = await hookScan(admin.cookie, keychain.id, { value: label(hooks[0]!.publicId) })
    expect(held.status).toBe(409)
    expect(((await held.json()) as { error: { code: string } }).error.code).toBe('keychain_held')
    const lent = await makeKeychain(t, organization.id, 'Lent')
    await makeTransfer(t, {
      organizationId: organization.id,
      keychainId: lent.id,
      recipientId: admin.id,
      status: 'TRANSFERRED',
    })
    const refused = await hookScan(admin.cookie, lent.id, { value: label(hooks[0]!.publicId) })
    expect(refused.status).toBe(409)
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(
      'Someone holds this keychain: it goes on a hook once it has been returned.',
    )
    expect(await eventsOf(t, organization.id, ['keychain.hung'])).toEqual([])
  })

  it('answers 400 not_a_hook_label for a tag, a board’s label, another organization’s hook or garbage', async () => {
    const { organization, admin, board, keychain } = await homedKeychain()
    const [tag] = await makeTags(t, organization.id)
    const foreign = await organizationWithAdmin(t, 'Foreign')
    const theirs = await makeBoard(t, foreign.organization.id, { count: 1 })
    for (const value of [
      tag!.code,
      `${TEST_PUBLIC_URL}/tags/${tag!.publicId}`,
      placeLabelUrl(TEST_PUBLIC_URL, board.publicId!),
      label(theirs.hooks[0]!.publicId),
      label('abcdefghijklmnop'),
      'nonsense',
    ]) {
      const response = await hookScan(admin.cookie, keychain.id, { value })
      expect(response.status, value).toBe(400)
      const { error } = (await response.json()) as { error: { code: string; message: string } }
      expect(error.code).toBe('not_a_hook_label')
      expect(error.message, value).toBe(
        value.includes('/p/')
          ? 'This is the label of a board or cabinet: scan the label of the hook itself.'
          : 'This is not the label of one of the organization’s hooks.',
      )
    }
    expect((await hookScan(admin.cookie, keychain.id, { value: '' })).status).toBe(400)
    expect(
      (
        await t.post(`/api/keychains/${keychain.id}/hook-scans`, {
          cookie: admin.cookie,
          json: { value: 'x' },
        })
      ).status,
    ).toBe(400)
  })

  it('answers 404 for another organization’s keychain and 403 to a contact', async () => {
    const { organization, admin, hooks } = await homedKeychain()
    const foreign = await organizationWithAdmin(t, 'Foreign')
    const theirs = await makeKeychain(t, foreign.organization.id)
    expect((await hookScan(admin.cookie, theirs.id, { value: label(hooks[0]!.publicId) })).status).toBe(404)
    const contact = await signedInMember(t, organization.id, 'CONTACT')
    const own = await makeKeychain(t, organization.id)
    expect((await hookScan(contact.cookie, own.id, { value: label(hooks[0]!.publicId) })).status).toBe(403)
  })
})

describe('taking a keychain takes it off its hook', () => {
  const hung = async (keychainId: string, hookId: string, by: string) => {
    await t.db
      .update(keychains)
      .set({ hookId, hookSeenAt: t.clock.now(), hookSeenById: by })
      .where(eq(keychains.id, keychainId))
  }
  const hookColumns = async (keychainId: string) => {
    const [row] = await t.db.select().from(keychains).where(eq(keychains.id, keychainId))
    return {
      hookId: row!.hookId,
      hookSeenAt: row!.hookSeenAt,
      hookSeenById: row!.hookSeenById,
      home: row!.homeHookId,
    }
  }
  const off = { hookId: null, hookSeenAt: null, hookSeenById: null }

  it('a custody change to someone (PATCH /keychains/:id), keeping its home; to nobody leaves the hook', async () => {
    const { organization, admin, hooks, keychain } = await homedKeychain()
    await hung(keychain.id, hooks[1]!.id, admin.id)
    const patch = (custodianId: string | null) =>
      t.patch(`/api/keychains/${keychain.id}`, { cookie: admin.cookie, json: { custodianId } })
    expect((await patch(admin.id)).status).toBe(200)
    expect(await hookColumns(keychain.id)).toEqual({ ...off, home: hooks[0]!.id })
    expect((await patch(null)).status).toBe(200)
    await hung(keychain.id, hooks[1]!.id, admin.id)
    const other = await makeKeychain(t, organization.id, 'Renamed only')
    await hung(other.id, hooks[1]!.id, admin.id)
    await t.patch(`/api/keychains/${other.id}`, { cookie: admin.cookie, json: { name: 'New name' } })
    expect((await hookColumns(other.id)).hookId).toBe(hooks[1]!.id)
  })

  it('a bulk custody change', async () => {
    const { admin, hooks, keychain } = await homedKeychain()
    await hung(keychain.id, hooks[0]!.id, admin.id)
    const response = await t.post('/api/keychain-bulk/custodian-changes', {
      cookie: admin.cookie,
      json: { ids: [keychain.id], custodianId: admin.id },
      headers: { 'idempotency-key': randomUUID() },
    })
    expect(response.status).toBe(200)
    expect(await hookColumns(keychain.id)).toMatchObject(off)
  })

  it('a transfer’s pickup', async () => {
    const { contact, admin, keychain, transfer } = await scheduledTransfer(t)
    const { hooks } = await makeBoard(t, transfer.organizationId)
    await hung(keychain.id, hooks[0]!.id, admin.id)
    expect((await pickup(t, contact.cookie, transfer.id)).status).toBe(201)
    expect(await hookColumns(keychain.id)).toMatchObject(off)
  })
})
