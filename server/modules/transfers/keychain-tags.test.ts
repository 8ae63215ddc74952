import { randomUUID } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { ScanResultSchema } from '../../../contract/scans.ts'
import { type Transfer, TransferPageSchema, TransferSchema } from '../../../contract/transfers.ts'
import { makeKeychain, makeTags } from '../../../tests/server/fixtures.ts'
import { setupTestAppAtEpoch } from '../../../tests/server/harness.ts'
import { addTagKey, makeTransfer, parisDay, pickup, transferWorld } from '../../../tests/server/transfers.ts'
import { idempotencyKeys, keys, type TagRow } from '../../db/schema.ts'

const t = setupTestAppAtEpoch()

/** Exactly these tags, in this order, as the tag endpoints give them. */
const tagsOf = (keychainId: string, tags: TagRow[]) =>
  tags.map((tag) =>
    expect.objectContaining({
      id: tag.id,
      code: tag.code,
      publicId: tag.publicId,
      url: `${t.config.publicUrl}/tags/${tag.publicId}`,
      key: expect.objectContaining({ keychainId }),
    }),
  )

/** The transfer world's keychain "Cave" (tag TRF) and "Grenier" (tag OTH), each transferred to the CONTACT. */
async function twoKeychains() {
  const world = await transferWorld(t)
  const { organization, contact } = world
  const [otherTag] = await makeTags(t, organization.id, 1, 'OTH')
  const other = await makeKeychain(t, organization.id, 'Grenier')
  await addTagKey(t, other.id, otherTag!.id)
  const transfer = await makeTransfer(t, {
    organizationId: organization.id,
    keychainId: world.keychain.id,
    recipientId: contact.id,
  })
  const otherTransfer = await makeTransfer(t, {
    organizationId: organization.id,
    keychainId: other.id,
    recipientId: contact.id,
    fromDate: parisDay(t, 2),
    toDate: parisDay(t, 3),
  })
  return { ...world, other, otherTag: otherTag!, transfer, otherTransfer }
}

async function page(path: string, cookie: string): Promise<Transfer[]> {
  const response = await t.get(path, { cookie })
  expect(response.status, path).toBe(200)
  const body = await response.json()
  expect(v.is(TransferPageSchema, body)).toBe(true)
  return body.data
}

const byId = (items: Transfer[], id: string) => items.find((item) => item.id === id)

async function scan(cookie: string, value: string, key = randomUUID()) {
  return t.post('/api/scans', { cookie, json: { value }, headers: { 'idempotency-key': key } })
}

/** Rewrites the answer stored for the key without `keychain.tags`, as a version before them stored it. */
async function storeWithoutTags<T>(userId: string, key: string, keychainOf: (body: T) => { tags?: unknown }) {
  const where = and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key))
  const [stored] = await t.db.select().from(idempotencyKeys).where(where)
  const body = stored!.responseBody as T
  delete keychainOf(body).tags
  await t.db.update(idempotencyKeys).set({ responseBody: body }).where(where)
}

describe('keychain.tags in transfer answers', () => {
  it('gives a CONTACT recipient the tags of each transfer’s keychain, never another keychain’s', async () => {
    const { contact, keychain, tag, other, otherTag, transfer, otherTransfer } = await twoKeychains()
    // A CONTACT cannot list the tags: the transfers are how their device learns them.
    expect((await t.get('/api/tags', { cookie: contact.cookie })).status).toBe(403)

    const requests = await page('/api/transfers/requests', contact.cookie)
    expect(byId(requests, transfer.id)!.keychain.tags).toEqual(tagsOf(keychain.id, [tag]))
    expect(byId(requests, otherTransfer.id)!.keychain.tags).toEqual(tagsOf(other.id, [otherTag]))

    const one = await t.get(`/api/transfers/${transfer.id}`, { cookie: contact.cookie })
    expect(one.status).toBe(200)
    const body = await one.json()
    expect(v.is(TransferSchema, body)).toBe(true)
    expect(body.keychain).toEqual({ id: keychain.id, name: 'Cave', tags: tagsOf(keychain.id, [tag]) })
    expect(JSON.stringify(body)).not.toContain(otherTag.publicId)

    const theirs = await page('/api/transfers', contact.cookie)
    expect(byId(theirs, otherTransfer.id)!.keychain.tags).toEqual(tagsOf(other.id, [otherTag]))
  })

  it('stops giving a CONTACT the tags once their transfer is over, while the office still sees them', async () => {
    const { admin, contact, keychain, tag, transfer } = await twoKeychains()
    const cancelled = await t.delete(`/api/transfers/${transfer.id}`, { cookie: admin.cookie })
    expect(cancelled.status).toBe(200)
    const theirs = await t.get(`/api/transfers/${transfer.id}`, { cookie: contact.cookie })
    expect((await theirs.json()).keychain.tags).toEqual([])
    const requests = await page('/api/transfers/requests', contact.cookie)
    expect(byId(requests, transfer.id)!.keychain.tags).toEqual([])
    const office = await t.get(`/api/transfers/${transfer.id}`, { cookie: admin.cookie })
    expect((await office.json()).keychain.tags).toEqual(tagsOf(keychain.id, [tag]))
  })

  it('gives the tags of an open transfer only while its window has not passed', async () => {
    const { contact, transfer } = await twoKeychains()
    expect((await page('/api/transfers/requests', contact.cookie)).length).toBe(2)
    t.clock.set(new Date(transfer.endsAt.getTime() + 1))
    const expired = await t.get(`/api/transfers/${transfer.id}`, { cookie: contact.cookie })
    expect((await expired.json()).keychain.tags).toEqual([])
  })

  it('lists them in the organization’s transfers and the keychain’s', async () => {
    const { admin, keychain, tag, other, otherTag, transfer, otherTransfer } = await twoKeychains()
    const all = await page('/api/transfers', admin.cookie)
    expect(byId(all, transfer.id)!.keychain.tags).toEqual(tagsOf(keychain.id, [tag]))
    expect(byId(all, otherTransfer.id)!.keychain.tags).toEqual(tagsOf(other.id, [otherTag]))
    const ofKeychain = await page(`/api/keychains/${other.id}/transfers`, admin.cookie)
    expect(ofKeychain.map((item) => item.keychain.tags)).toEqual([tagsOf(other.id, [otherTag])])
  })

  it('gives every tagged key’s tag, by code; a keychain whose keys carry no tag has none', async () => {
    const { organization, admin, contact, keychain, tag, transfer } = await twoKeychains()
    const [first] = await makeTags(t, organization.id, 1, 'AAA')
    await addTagKey(t, keychain.id, first!.id, 'Boîte')
    await t.db
      .insert(keys)
      .values({ keychainId: keychain.id, name: 'Plain', type: 'KEY', createdAt: t.clock.now() })
    const body = (await (
      await t.get(`/api/transfers/${transfer.id}`, { cookie: contact.cookie })
    ).json()) as Transfer
    expect(body.keychain.tags).toEqual(tagsOf(keychain.id, [first!, tag]))

    const plain = await makeKeychain(t, organization.id, 'Plain')
    await t.db
      .insert(keys)
      .values({ keychainId: plain.id, name: 'Plain', type: 'KEY', createdAt: t.clock.now() })
    const untagged = await makeTransfer(t, {
      organizationId: organization.id,
      keychainId: plain.id,
      recipientId: contact.id,
    })
    const view = await (await t.get(`/api/transfers/${untagged.id}`, { cookie: admin.cookie })).json()
    expect(view.keychain).toEqual({ id: plain.id, name: 'Plain', tags: [] })
  })

  it('gives a deleted keychain’s transfer no tags', async () => {
    const { organization, admin, contact, keychain, tag } = await transferWorld(t)
    const returned = await makeTransfer(t, {
      organizationId: organization.id,
      keychainId: keychain.id,
      recipientId: contact.id,
      status: 'RETURNED',
    })
    const before = await (await t.get(`/api/transfers/${returned.id}`, { cookie: admin.cookie })).json()
    expect(before.keychain.tags).toEqual(tagsOf(keychain.id, [tag]))
    expect((await t.delete(`/api/keychains/${keychain.id}`, { cookie: admin.cookie })).status).toBe(204)
    const one = await (await t.get(`/api/transfers/${returned.id}`, { cookie: admin.cookie })).json()
    expect(one.keychain).toEqual({ id: keychain.id, name: 'Keychain', tags: [] })
    const requests = await page('/api/transfers/requests', contact.cookie)
    expect(byId(requests, returned.id)!.keychain.tags).toEqual([])
  })

  it('gives them in a scan’s transfer and a pickup’s answer, replays included', async () => {
    const { contact, keychain, tag, transfer } = await twoKeychains()
    const scanned = await scan(contact.cookie, tag.publicId)
    const result = await scanned.json()
    expect(v.is(ScanResultSchema, result)).toBe(true)
    expect(result.transfer).toMatchObject({ id: transfer.id, next: 'PICKUP' })
    expect(result.transfer.keychain.tags).toEqual(tagsOf(keychain.id, [tag]))

    const key = randomUUID()
    const picked = await pickup(t, contact.cookie, transfer.id, key)
    expect(picked.status).toBe(201)
    const body = await picked.json()
    expect(v.is(TransferSchema, body)).toBe(true)
    expect(body).toMatchObject({ id: transfer.id, status: 'TRANSFERRED' })
    expect(body.keychain.tags).toEqual(tagsOf(keychain.id, [tag]))
    const replay = await pickup(t, contact.cookie, transfer.id, key)
    expect(replay.headers.get('idempotent-replayed')).toBe('true')
    expect(await replay.json()).toEqual(body)
  })

  it('replays an answer stored before transfers carried tags with none, as the schema wants', async () => {
    const { contact, tag, transfer } = await twoKeychains()
    const scanKey = randomUUID()
    expect((await scan(contact.cookie, tag.publicId, scanKey)).status).toBe(201)
    await storeWithoutTags(contact.id, scanKey, (body: { transfer: Transfer }) => body.transfer.keychain)
    const scanned = await scan(contact.cookie, tag.publicId, scanKey)
    expect(scanned.status).toBe(201)
    expect(scanned.headers.get('idempotent-replayed')).toBe('true')
    const result = await scanned.json()
    expect(v.is(ScanResultSchema, result)).toBe(true)
    expect(result.transfer.keychain).toMatchObject({ name: 'Cave', tags: [] })

    const key = randomUUID()
    expect((await pickup(t, contact.cookie, transfer.id, key)).status).toBe(201)
    await storeWithoutTags(contact.id, key, (body: Transfer) => body.keychain)
    const replay = await pickup(t, contact.cookie, transfer.id, key)
    expect(replay.status).toBe(201)
    expect(replay.headers.get('idempotent-replayed')).toBe('true')
    const body = await replay.json()
    expect(v.is(TransferSchema, body)).toBe(true)
    expect(body).toMatchObject({
      id: transfer.id,
      status: 'TRANSFERRED',
      keychain: { name: 'Cave', tags: [] },
    })
  })
})
