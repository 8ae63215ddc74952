// A scan of a lost tag, or of the old QR of a tag reprinted since: it resolves to no keychain, stays an entry of
// the tag's organization's log (without the keychain the tag is on), and tells the organization's admins.
import { randomUUID } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { placeOrder, settleLocally } from '../../../tests/server/commerce.ts'
import { organizationWithAdmin } from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { transferWorld } from '../../../tests/server/transfers.ts'
import { organizationEvents, tags } from '../../db/schema.ts'

const t = setupTestApp()

const scan = (cookie: string, value: string) =>
  t.post('/api/scans', { cookie, json: { value }, headers: { 'idempotency-key': randomUUID() } })

const scansLogged = (organizationId: string) =>
  t.db
    .select()
    .from(organizationEvents)
    .where(
      and(
        eq(organizationEvents.organizationId, organizationId),
        eq(organizationEvents.kind, 'scan.recorded'),
      ),
    )
    .orderBy(organizationEvents.seq)

/** The tag of the transfer world, declared lost at `declaredAt`; the clock then moves on an hour. */
async function lostTag() {
  const world = await transferWorld(t)
  const declaredAt = t.clock.now()
  expect((await t.put(`/api/tags/${world.tag.id}/lost`, { cookie: world.admin.cookie })).status).toBe(200)
  t.clock.advance(60 * 60 * 1000)
  await t.runJobs()
  t.mail.clear()
  return { ...world, declaredAt }
}

describe('a scan of a lost tag by its organization', () => {
  it('answers the day it was declared lost, not the scan’s, and logs the tag without its keychain', async () => {
    const world = await lostTag()
    const body = await (await scan(world.member.cookie, world.tag.code)).json()
    expect(body).toEqual({
      status: 'lost',
      scanId: expect.any(String),
      tag: {
        id: world.tag.id,
        code: world.tag.code,
        name: world.tag.name,
        lostAt: world.declaredAt.toISOString(),
      },
    })
    const entries = await scansLogged(world.organization.id)
    expect(entries).toHaveLength(1)
    expect(entries[0]).toMatchObject({
      actorId: world.member.id,
      keychainIds: [],
      tagIds: [world.tag.id],
      payload: { scanId: body.scanId },
    })
  })

  it('tells its admins, as does a scan of it from another organization (logged only by the scanner)', async () => {
    const world = await lostTag()
    const other = await organizationWithAdmin(t, 'Ailleurs')
    const foreign = await (await scan(other.admin.cookie, world.tag.publicId)).json()
    expect(foreign).toMatchObject({ status: 'foreign', publicId: world.tag.publicId })
    await t.runJobs()
    expect(t.mail.to(world.admin.email).map((mail) => mail.subject)).toEqual([
      expect.stringContaining(world.tag.code),
    ])
    expect(await scansLogged(world.organization.id)).toEqual([])
    expect(await scansLogged(other.organization.id)).toEqual([])
  })
})

describe('a scan of a tag that is not lost', () => {
  it('tells no admin', async () => {
    const world = await transferWorld(t)
    await t.runJobs()
    t.mail.clear()
    expect((await (await scan(world.member.cookie, world.tag.code)).json()).status).toBe('resolved')
    const other = await organizationWithAdmin(t, 'Ailleurs')
    expect((await (await scan(other.admin.cookie, world.tag.publicId)).json()).status).toBe('foreign')
    await t.runJobs()
    expect(t.mail.to(world.admin.email)).toEqual([])
  })
})

describe('a scan of the old QR of a tag reprinted since', () => {
  it('answers lost as of the scan, the tag being found again, and tells the admins', async () => {
    const world = await transferWorld(t)
    const oldPublicId = world.tag.publicId
    await t.put(`/api/tags/${world.tag.id}/lost`, { cookie: world.admin.cookie })
    await t.post(`/api/tags/${world.tag.id}/replacements`, { cookie: world.admin.cookie })
    const order = await placeOrder(t, world.admin.cookie, [])
    expect((await settleLocally(t, world.admin.cookie, order.id, 'pay')).status).toBe(303)
    const [row] = await t.db.select().from(tags).where(eq(tags.id, world.tag.id))
    expect(row).toMatchObject({ lostAt: null })
    t.clock.advance(2 * 60 * 60 * 1000)
    await t.runJobs()
    t.mail.clear()

    const body = await (await scan(world.member.cookie, oldPublicId)).json()
    expect(body).toEqual({
      status: 'lost',
      scanId: expect.any(String),
      tag: {
        id: world.tag.id,
        code: world.tag.code,
        name: world.tag.name,
        lostAt: t.clock.now().toISOString(),
      },
    })
    const entries = await scansLogged(world.organization.id)
    expect(entries.at(-1)).toMatchObject({ keychainIds: [], tagIds: [world.tag.id] })
    await t.runJobs()
    expect(t.mail.to(world.admin.email).map((mail) => mail.subject)).toEqual([
      expect.stringContaining(world.tag.code),
    ])
    // The reprint itself resolves to its keychain, and tells no one.
    t.mail.clear()
    expect(await (await scan(world.member.cookie, row!.publicId)).json()).toMatchObject({
      status: 'resolved',
      keychain: { id: world.keychain.id },
    })
    await t.runJobs()
    expect(t.mail.to(world.admin.email)).toEqual([])
  })
})
