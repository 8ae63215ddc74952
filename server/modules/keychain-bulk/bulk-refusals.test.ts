// Bulk custodian changes and deletions: what they write when some keychains need nothing, and what each refusal
// says (the keychains named, in the order they are locked; three at most, then an ellipsis).
import { randomUUID } from 'node:crypto'
import { and, asc, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { BULK_KEYCHAINS_MAX } from '../../../contract/keychain-bulk.ts'
import {
  makeKeychain,
  makeTags,
  organizationWithAdmin,
  signedInMember,
} from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { addTagKey, makeTransfer } from '../../../tests/server/transfers.ts'
import { custodyLog, type KeychainRow, keychains, organizationEvents } from '../../db/schema.ts'

const t = setupTestApp()

const post = (path: string, cookie: string, json: unknown) =>
  t.post(`/api/keychain-bulk/${path}`, { cookie, json, headers: { 'idempotency-key': randomUUID() } })
const eventsOf = (organizationId: string, kind: string) =>
  t.db
    .select()
    .from(organizationEvents)
    .where(and(eq(organizationEvents.organizationId, organizationId), eq(organizationEvents.kind, kind)))
    .orderBy(asc(organizationEvents.seq))
const rowOf = async (id: string) => (await t.db.select().from(keychains).where(eq(keychains.id, id)))[0]!

async function world(names: string[], holder?: 'lea') {
  const { organization, admin } = await organizationWithAdmin(t, 'Refus')
  const lea = await signedInMember(t, organization.id, 'MEMBER')
  const made: KeychainRow[] = []
  for (const name of names)
    made.push(await makeKeychain(t, organization.id, name, holder ? lea.id : undefined))
  const inIdOrder = (chosen: KeychainRow[]) =>
    [...chosen]
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .map((keychain) => keychain.name)
      .slice(0, 3)
      .join(', ')
  return { organization, admin, lea, keychains: made, inIdOrder }
}

describe('bulk custodian changes', () => {
  it('keychains already with that custodian: nothing written, counted unchanged, even one out on a transfer', async () => {
    const w = await world(['Cave', 'Garage'], 'lea')
    await makeTransfer(t, {
      organizationId: w.organization.id,
      keychainId: w.keychains[0]!.id,
      recipientId: w.admin.profile.id,
      status: 'TRANSFERRED',
    })
    const before = await Promise.all(w.keychains.map((keychain) => rowOf(keychain.id)))
    t.clock.advance(60_000)
    const response = await post('custodian-changes', w.admin.cookie, {
      ids: w.keychains.map((keychain) => keychain.id),
      custodianId: w.lea.id,
      reason: 'x',
    })
    expect(await response.json()).toEqual({ count: 0, unchanged: 2 })
    expect(await Promise.all(w.keychains.map((keychain) => rowOf(keychain.id)))).toEqual(before)
    expect(await t.db.select().from(custodyLog).where(eq(custodyLog.byUserId, w.admin.profile.id))).toEqual(
      [],
    )
    expect(await eventsOf(w.organization.id, 'keychain.updated')).toEqual([])
  })

  it('writes the change at the time it is made: the row, the custody entry and the event, from nobody', async () => {
    const w = await world(['Cave'])
    const later = t.clock.advance(3_600_000)
    const response = await post('custodian-changes', w.admin.cookie, {
      ids: [w.keychains[0]!.id],
      custodianId: w.lea.id,
      reason: 'Arrivée',
    })
    expect(await response.json()).toEqual({ count: 1, unchanged: 0 })
    expect(await rowOf(w.keychains[0]!.id)).toMatchObject({ custodianId: w.lea.id, updatedAt: later })
    expect(await t.db.select().from(custodyLog).where(eq(custodyLog.keychainId, w.keychains[0]!.id))).toEqual(
      [expect.objectContaining({ fromUserId: null, toUserId: w.lea.id, at: later, reason: 'Arrivée' })],
    )
    const [event] = await eventsOf(w.organization.id, 'keychain.updated')
    expect(event).toMatchObject({
      actorId: w.admin.profile.id,
      serverTime: later,
      clientTime: null,
      fromQueue: false,
      keychainIds: [w.keychains[0]!.id],
      tagIds: [],
      transferIds: [],
      payload: { custodian: { from: null, to: w.lea.id }, reason: 'Arrivée' },
    })
  })

  it('a keychain only scheduled to go out may change hands; three out on a transfer are all named', async () => {
    const w = await world(['A1', 'A2', 'A3', 'A4'])
    const out = (index: number, status: 'SCHEDULED' | 'TRANSFERRED') =>
      makeTransfer(t, {
        organizationId: w.organization.id,
        keychainId: w.keychains[index]!.id,
        recipientId: w.lea.id,
        status,
      })
    await out(3, 'SCHEDULED')
    const scheduled = await post('custodian-changes', w.admin.cookie, {
      ids: [w.keychains[3]!.id],
      custodianId: w.lea.id,
      reason: 'x',
    })
    expect(scheduled.status).toBe(200)
    for (const index of [0, 1, 2]) await out(index, 'TRANSFERRED')
    const three = await post('custodian-changes', w.admin.cookie, {
      ids: w.keychains.map((keychain) => keychain.id),
      custodianId: w.admin.profile.id,
      reason: 'x',
    })
    expect(three.status).toBe(409)
    expect((await three.json()).error.message).toBe(
      `3 of these keychains are out on a transfer (${w.inIdOrder(w.keychains.slice(0, 3))}): their custodian changes when they are returned. Nothing was changed.`,
    )
  })
})

describe('bulk deletions', () => {
  it('a filter matching nothing deletes nothing', async () => {
    const w = await world(['Cave'])
    const response = await post('deletions', w.admin.cookie, { filter: { q: 'nothing like it' } })
    expect(await response.json()).toEqual({ count: 0, unchanged: 0 })
    expect(await eventsOf(w.organization.id, 'keychain.deleted')).toEqual([])
  })

  it('one keychain.deleted event per keychain, naming every tag it freed, or none', async () => {
    const w = await world(['Cave', 'Garage'])
    const [first, second] = await makeTags(t, w.organization.id, 2, 'DEL')
    await addTagKey(t, w.keychains[0]!.id, first!.id, 'Porte')
    await addTagKey(t, w.keychains[0]!.id, second!.id, 'Grille')
    const response = await post('deletions', w.admin.cookie, {
      ids: w.keychains.map((keychain) => keychain.id),
    })
    expect(await response.json()).toEqual({ count: 2, unchanged: 0 })
    const events = await eventsOf(w.organization.id, 'keychain.deleted')
    const byKeychain = new Map(events.map((event) => [event.keychainIds[0], event]))
    expect([...(byKeychain.get(w.keychains[0]!.id)?.tagIds ?? [])].sort()).toEqual(
      [first!.id, second!.id].sort(),
    )
    expect(byKeychain.get(w.keychains[1]!.id)).toMatchObject({ tagIds: [], payload: { name: 'Garage' } })
    expect(events).toHaveLength(2)
  })

  it('names the keychains with an active transfer: one, three, or three then an ellipsis', async () => {
    const w = await world(['B1', 'B2', 'B3', 'B4', 'B5'])
    const busy = (index: number) =>
      makeTransfer(t, {
        organizationId: w.organization.id,
        keychainId: w.keychains[index]!.id,
        recipientId: w.lea.id,
      })
    const ids = w.keychains.map((keychain) => keychain.id)
    const message = (count: number, names: string, more: string) =>
      `${count} of these keychains have an active transfer (${names}${more}): cancel it, or wait for them to come back. Nothing was deleted.`
    await busy(4)
    const one = await post('deletions', w.admin.cookie, { ids })
    expect(one.status).toBe(409)
    expect((await one.json()).error).toMatchObject({ code: 'conflict', message: message(1, 'B5', '') })
    await busy(2)
    await busy(0)
    const three = await post('deletions', w.admin.cookie, { ids })
    expect((await three.json()).error.message).toBe(
      message(3, w.inIdOrder([w.keychains[0]!, w.keychains[2]!, w.keychains[4]!]), ''),
    )
    await busy(1)
    const four = await post('deletions', w.admin.cookie, { ids })
    expect((await four.json()).error.message).toBe(
      message(4, w.inIdOrder([w.keychains[0]!, w.keychains[1]!, w.keychains[2]!, w.keychains[4]!]), '…'),
    )
    expect(await eventsOf(w.organization.id, 'keychain.deleted')).toEqual([])
  })
})

describe('bulk selections', () => {
  it('an id that is not the organization’s: 404 "No such keychain."', async () => {
    const w = await world(['Cave'])
    const response = await post('deletions', w.admin.cookie, { ids: [w.keychains[0]!.id, randomUUID()] })
    expect(response.status).toBe(404)
    expect((await response.json()).error).toMatchObject({ code: 'not_found', message: 'No such keychain.' })
  })

  it(`takes exactly ${BULK_KEYCHAINS_MAX} keychains by filter, and says how to do with one more`, async () => {
    const w = await world([])
    const now = t.clock.now()
    await t.db.insert(keychains).values(
      Array.from({ length: BULK_KEYCHAINS_MAX }, (_, n) => ({
        organizationId: w.organization.id,
        name: `Lot ${n}`,
        createdAt: now,
        updatedAt: now,
      })),
    )
    const most = await post('custodian-changes', w.admin.cookie, {
      filter: { q: 'lot' },
      custodianId: w.lea.id,
    })
    expect(await most.json()).toEqual({ count: BULK_KEYCHAINS_MAX, unchanged: 0 })
    await makeKeychain(t, w.organization.id, 'Lot de trop')
    const over = await post('custodian-changes', w.admin.cookie, { filter: { q: 'lot' }, custodianId: null })
    expect(over.status).toBe(400)
    expect((await over.json()).error).toMatchObject({
      code: 'bulk_selection_too_large',
      message: `More than ${BULK_KEYCHAINS_MAX} keychains match: narrow the search, or act on them in parts.`,
    })
  })

  it('searches part of the name in any case, a % or _ being only itself', async () => {
    const w = await world(['Remise 50%', 'Remise 500', 'Box_1', 'Box21'])
    const count = async (q: string) =>
      (await (await post('deletions', w.admin.cookie, { filter: { q } })).json()).count
    expect(await count('50%')).toBe(1)
    expect(await count('X_1')).toBe(1)
    expect(await count('REMISE')).toBe(1)
  })
})
