import { randomUUID } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import type { SyncPage } from '../../../contract/sync.ts'
import { placeOrder, settleLocally } from '../../../tests/server/commerce.ts'
import { makeTags, organizationWithAdmin, signedInMember } from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { transferWorld } from '../../../tests/server/transfers.ts'
import { scans, tags } from '../../db/schema.ts'
import { LOST_SCAN_NOTICE_WINDOW_MS } from './lost.ts'

const t = setupTestApp()

const scan = (cookie: string, value: string) =>
  t.post('/api/scans', { cookie, json: { value }, headers: { 'idempotency-key': randomUUID() } })
const declare = (cookie: string, id: string) => t.put(`/api/tags/${id}/lost`, { cookie })
const undo = (cookie: string, id: string) => t.delete(`/api/tags/${id}/lost`, { cookie })

describe('PUT and DELETE /api/tags/{id}/lost', () => {
  it('declares a tag lost with who and when, logs it, and undoes it', async () => {
    const world = await transferWorld(t)
    const declared = await declare(world.admin.cookie, world.tag.id)
    expect(declared.status).toBe(200)
    const body = await declared.json()
    expect(body.tag).toMatchObject({ id: world.tag.id, lostAt: t.clock.now().toISOString() })
    expect(body.lostBy).toMatchObject({ id: world.admin.profile.id })
    // Twice changes nothing (one ledger entry).
    expect((await declare(world.admin.cookie, world.tag.id)).status).toBe(200)
    const log = await (
      await t.get('/api/activity?kind=tag.lost_declared', { cookie: world.admin.cookie })
    ).json()
    expect(log.data).toHaveLength(1)
    expect(log.data[0]).toMatchObject({ tagIds: [world.tag.id] })

    const undone = await undo(world.admin.cookie, world.tag.id)
    expect(undone.status).toBe(200)
    const after = await undone.json()
    expect(after.tag.lostAt).toBeUndefined()
    expect(after.lostBy).toBeNull()
    const undoLog = await (
      await t.get('/api/activity?kind=tag.lost_undone', { cookie: world.admin.cookie })
    ).json()
    expect(undoLog.data).toHaveLength(1)
    expect(await (await scan(world.admin.cookie, world.tag.code)).json()).toMatchObject({
      status: 'resolved',
    })
  })

  it('is for roles that update tags (admin, manager), and 404 for another organization’s tag', async () => {
    const world = await transferWorld(t)
    const manager = await signedInMember(t, world.organization.id, 'MANAGER')
    expect((await declare(world.member.cookie, world.tag.id)).status).toBe(403)
    expect((await declare(world.contact.cookie, world.tag.id)).status).toBe(403)
    expect((await undo(world.member.cookie, world.tag.id)).status).toBe(403)
    expect((await declare(manager.cookie, world.tag.id)).status).toBe(200)
    expect((await undo(manager.cookie, world.tag.id)).status).toBe(200)
    const other = await organizationWithAdmin(t, 'Other')
    expect((await declare(other.admin.cookie, world.tag.id)).status).toBe(404)
    expect((await undo(other.admin.cookie, world.tag.id)).status).toBe(404)
    expect(
      (await t.post(`/api/tags/${world.tag.id}/replacements`, { cookie: other.admin.cookie })).status,
    ).toBe(404)
  })
})

describe('scanning a lost tag', () => {
  it('answers lost (no keychain, no action) by code or QR, stores the scan and logs it', async () => {
    const world = await transferWorld(t)
    await declare(world.admin.cookie, world.tag.id)
    for (const value of [world.tag.code, world.tag.publicId]) {
      const response = await scan(world.member.cookie, value)
      expect(response.status).toBe(201)
      const body = await response.json()
      expect(body).toEqual({
        status: 'lost',
        scanId: expect.any(String),
        tag: { id: world.tag.id, code: world.tag.code, name: world.tag.name, lostAt: expect.any(String) },
      })
      const [row] = await t.db.select().from(scans).where(eq(scans.id, body.scanId))
      expect(row).toMatchObject({ result: 'lost', tagId: world.tag.id })
    }
    const log = await (await t.get('/api/activity?kind=scan.recorded', { cookie: world.admin.cookie })).json()
    expect(log.data).toHaveLength(2)
    // Another organization still only gets the public landing, which keeps the finder's form.
    const other = await organizationWithAdmin(t, 'Other')
    expect(await (await scan(other.admin.cookie, world.tag.publicId)).json()).toMatchObject({
      status: 'foreign',
    })
    const landing = await (await t.get(`/api/tags/${world.tag.publicId}`)).json()
    expect(landing).toEqual({ view: 'found', code: world.tag.code, organization: { name: 'Agence' } })
  })

  it('mails the active admins once per tag an hour, in their language, however often it is scanned', async () => {
    const world = await transferWorld(t)
    await t.patch('/api/profile', { cookie: world.admin.cookie, json: { locale: 'en' } })
    const frenchAdmin = await signedInMember(t, world.organization.id, 'ADMIN')
    const manager = await signedInMember(t, world.organization.id, 'MANAGER')
    const [second] = await makeTags(t, world.organization.id)
    await declare(world.admin.cookie, world.tag.id)
    await declare(world.admin.cookie, second!.id)
    for (let i = 0; i < 5; i += 1) await scan(world.member.cookie, world.tag.code)
    // A finder opening the QR counts as a scan too.
    await t.get(`/api/tags/${world.tag.publicId}`)
    await scan(world.member.cookie, second!.code)
    await t.runJobs()
    const english = t.mail.to(world.admin.email)
    expect(english.map((mail) => mail.subject).sort()).toEqual(
      [`Lost tag ${second!.code} was scanned`, `Lost tag ${world.tag.code} was scanned`].sort(),
    )
    expect(english[0]!.text).toContain(`${t.config.publicUrl}/en/tags/`)
    expect(t.mail.to(frenchAdmin.email).map((mail) => mail.subject)).toContain(
      `Étiquette perdue ${world.tag.code} scannée`,
    )
    expect(t.mail.to(manager.email)).toHaveLength(0)

    t.clock.advance(LOST_SCAN_NOTICE_WINDOW_MS + 1)
    await scan(world.member.cookie, world.tag.code)
    await t.runJobs()
    expect(t.mail.to(world.admin.email)).toHaveLength(3)
  })
})

describe('the change feed', () => {
  it('carries the lost state to the devices, and its undoing', async () => {
    const world = await transferWorld(t)
    const first = (await (
      await t.get('/api/sync/changes', { cookie: world.member.cookie })
    ).json()) as SyncPage
    let cursor = first.cursor
    for (let page = first; page.more; ) {
      page = await (await t.get(`/api/sync/changes?cursor=${cursor}`, { cookie: world.member.cookie })).json()
      cursor = page.cursor
    }
    await declare(world.admin.cookie, world.tag.id)
    const changed = (await (
      await t.get(`/api/sync/changes?cursor=${cursor}`, { cookie: world.member.cookie })
    ).json()) as SyncPage
    expect(changed.tags.find((tag) => tag.id === world.tag.id)?.lostAt).toBe(t.clock.now().toISOString())
    await undo(world.admin.cookie, world.tag.id)
    const back = (await (
      await t.get(`/api/sync/changes?cursor=${changed.cursor}`, { cookie: world.member.cookie })
    ).json()) as SyncPage
    const tag = back.tags.find((each) => each.id === world.tag.id)
    expect(tag).toBeDefined()
    expect(tag!.lostAt).toBeUndefined()
  })
})

describe('POST /api/tags/{id}/replacements', () => {
  it('puts a reprint of the same code in the cart in one step; paid, the tag gets a new QR and the old one answers lost', async () => {
    const world = await transferWorld(t)
    const oldPublicId = world.tag.publicId
    await declare(world.admin.cookie, world.tag.id)
    const added = await t.post(`/api/tags/${world.tag.id}/replacements`, { cookie: world.admin.cookie })
    expect(added.status).toBe(201)
    const { cartItemId } = await added.json()
    // Once: asking again keeps the one line.
    const again = await t.post(`/api/tags/${world.tag.id}/replacements`, { cookie: world.admin.cookie })
    expect((await again.json()).cartItemId).toBe(cartItemId)
    const cart = await (await t.get('/api/cart', { cookie: world.admin.cookie })).json()
    expect(cart.items).toHaveLength(1)
    expect(cart.items[0]).toMatchObject({
      id: cartItemId,
      productType: 'TAG',
      quantity: 1,
      configuration: { alphaCode: 'TRF', replacesTagId: world.tag.id },
    })

    const order = await placeOrder(t, world.admin.cookie, [])
    expect((await settleLocally(t, world.admin.cookie, order.id, 'pay')).status).toBe(303)
    const [row] = await t.db.select().from(tags).where(eq(tags.id, world.tag.id))
    expect(row).toMatchObject({ code: world.tag.code, orderId: order.id, lostAt: null })
    expect(row!.publicId).not.toBe(oldPublicId)
    const details = await (
      await t.get(`/api/orders/${order.id}/details`, { cookie: world.admin.cookie })
    ).json()
    expect(details.tags.map((tag: { code: string }) => tag.code)).toEqual([world.tag.code])
    // No tag with a new number was made.
    expect(
      await t.db
        .select()
        .from(tags)
        .where(and(eq(tags.organizationId, world.organization.id), eq(tags.alphaCode, 'TRF'))),
    ).toHaveLength(1)

    expect(await (await scan(world.member.cookie, row!.publicId)).json()).toMatchObject({
      status: 'resolved',
      keychain: { id: world.keychain.id },
    })
    expect(await (await scan(world.member.cookie, oldPublicId)).json()).toMatchObject({ status: 'lost' })
    const log = await (await t.get('/api/activity?kind=tag.replaced', { cookie: world.admin.cookie })).json()
    expect(log.data).toHaveLength(1)
  })

  it('is for roles that order (not members), and a replacement cannot be forged through the cart', async () => {
    const world = await transferWorld(t)
    expect(
      (await t.post(`/api/tags/${world.tag.id}/replacements`, { cookie: world.member.cookie })).status,
    ).toBe(403)
    const forged = await t.post('/api/cart/items', {
      cookie: world.admin.cookie,
      json: {
        productType: 'TAG',
        productRefId: 'tag-standard',
        quantity: 10,
        unitAmountInCents: 250,
        configuration: {
          name: 'x',
          alphaCode: 'TRF',
          startNumber: 1,
          foregroundColor: '#111111',
          backgroundColor: '#ffffff',
          replacesTagId: world.tag.id,
        },
      },
    })
    expect(forged.status).toBe(400)
  })
})
