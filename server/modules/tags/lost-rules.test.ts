import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { describe, expect, it, vi } from 'vitest'
import { TAG_PRODUCT_ID } from '../../../contract/commerce.ts'
import { makeTags, organizationWithAdmin } from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { transferWorld } from '../../../tests/server/transfers.ts'
import { cartItems, memberships, organizationEvents, tagRetiredPublicIds, tags } from '../../db/schema.ts'
import { MAX_CART_ITEMS } from '../../shared/cart-limits.ts'
import { createOrder } from '../orders/checkout.ts'
import { PLAN_IDS } from '../plans/catalog.ts'
import { findActivePlan, planConfiguration } from '../plans/service.ts'
import { LOST_SCAN_NOTICE_WINDOW_MS, noticeLostTagScan, replaceTag } from './lost.ts'

const t = setupTestApp()

const scan = (cookie: string, value: string) =>
  t.post('/api/scans', { cookie, json: { value }, headers: { 'idempotency-key': randomUUID() } })
const declare = (cookie: string, id: string) => t.put(`/api/tags/${id}/lost`, { cookie })
const undo = (cookie: string, id: string) => t.delete(`/api/tags/${id}/lost`, { cookie })
const replace = (cookie: string, id: string) => t.post(`/api/tags/${id}/replacements`, { cookie })

describe('the lost tag notice', () => {
  it('comes again only after a whole hour, or once the tag is declared lost anew; a found tag is not told', async () => {
    const world = await transferWorld(t, { name: 'Résidence Hêtres' })
    const notices = async () => {
      await t.runJobs()
      return t.mail.to(world.admin.email).filter((mail) => mail.text.includes(world.tag.code))
    }
    await declare(world.admin.cookie, world.tag.id)
    await scan(world.member.cookie, world.tag.code)
    const [first] = await notices()
    expect(first?.text).toContain('Résidence Hêtres')
    t.clock.advance(LOST_SCAN_NOTICE_WINDOW_MS)
    await scan(world.member.cookie, world.tag.code)
    expect(await notices()).toHaveLength(1)
    t.clock.advance(1)
    await scan(world.member.cookie, world.tag.code)
    expect(await notices()).toHaveLength(2)
    // Found again: its scans resolve and tell no one.
    await undo(world.admin.cookie, world.tag.id)
    expect((await (await scan(world.member.cookie, world.tag.code)).json()).status).toBe('resolved')
    expect(await notices()).toHaveLength(2)
    // Lost anew within the hour: a new window.
    await declare(world.admin.cookie, world.tag.id)
    await scan(world.member.cookie, world.tag.code)
    expect(await notices()).toHaveLength(3)
  })
})

describe('noticeLostTagScan', () => {
  it('wakes the job runner only when it queued mails: a lost tag with admins, once in its hour', async () => {
    const world = await transferWorld(t)
    const nudge = vi.spyOn(t.deps.jobs, 'nudge')
    try {
      await noticeLostTagScan(t.deps, world.tag)
      expect(nudge).not.toHaveBeenCalled() // not lost
      await declare(world.admin.cookie, world.tag.id)
      nudge.mockClear()
      await noticeLostTagScan(t.deps, world.tag)
      expect(nudge).toHaveBeenCalledTimes(1)
      await noticeLostTagScan(t.deps, world.tag)
      expect(nudge).toHaveBeenCalledTimes(1) // within the hour
      // An organization whose admins have all left: nothing to send, nothing to wake.
      const [alone] = await makeTags(t, (await organizationWithAdmin(t, 'Seule')).organization.id)
      await t.db.update(tags).set({ lostAt: t.clock.now() }).where(eq(tags.id, alone!.id))
      await t.db.delete(memberships).where(eq(memberships.organizationId, alone!.organizationId))
      await noticeLostTagScan(t.deps, alone!)
      expect(nudge).toHaveBeenCalledTimes(1)
      const [row] = await t.db.select().from(tags).where(eq(tags.id, alone!.id))
      expect(row!.lostNoticeAt).toEqual(t.clock.now())
    } finally {
      nudge.mockRestore()
    }
  })
})

describe('a replacement', () => {
  it('copies the tag’s name, code and colours into the cart line, while the cart has room', async () => {
    const world = await transferWorld(t)
    await t.db
      .update(tags)
      .set({ name: 'Cave nord', foregroundColor: '#102030', backgroundColor: '#f0e0d0' })
      .where(eq(tags.id, world.tag.id))
    const line = (index: number) => ({
      userId: world.admin.profile.id,
      organizationId: world.organization.id,
      productType: 'TAG' as const,
      productRefId: TAG_PRODUCT_ID,
      quantity: 1,
      configuration: { name: `Lot ${index}`, alphaCode: 'AAA', startNumber: index + 1 },
      createdAt: t.clock.now(),
    })
    await t.db.insert(cartItems).values(Array.from({ length: MAX_CART_ITEMS }, (_, index) => line(index)))
    const full = await replace(world.admin.cookie, world.tag.id)
    expect(full.status).toBe(409)
    expect((await full.json()).error).toMatchObject({
      code: 'conflict',
      message: `A cart holds ${MAX_CART_ITEMS} items at most.`,
    })
    const [last] = await t.db.select({ id: cartItems.id }).from(cartItems).limit(1)
    await t.db.delete(cartItems).where(eq(cartItems.id, last!.id))
    const added = await replace(world.admin.cookie, world.tag.id)
    expect(added.status).toBe(201)
    const { cartItemId } = await added.json()
    const [row] = await t.db.select().from(cartItems).where(eq(cartItems.id, cartItemId))
    expect(row).toMatchObject({ productType: 'TAG', productRefId: TAG_PRODUCT_ID, quantity: 1 })
    expect(row!.configuration).toEqual({
      name: 'Cave nord',
      alphaCode: world.tag.alphaCode,
      startNumber: world.tag.number,
      foregroundColor: '#102030',
      backgroundColor: '#f0e0d0',
      replacesTagId: world.tag.id,
    })
  })

  it('paid for a tag no longer in the organization changes nothing', async () => {
    const world = await transferWorld(t)
    const other = await organizationWithAdmin(t, 'Ailleurs')
    const now = t.clock.now()
    const input = { organizationId: other.organization.id, tagId: world.tag.id, orderId: randomUUID(), now }
    expect(await replaceTag(t.db, input)).toBeNull()
    const [row] = await t.db.select().from(tags).where(eq(tags.id, world.tag.id))
    expect(row!.publicId).toBe(world.tag.publicId)
    expect(await t.db.select().from(tagRetiredPublicIds)).toHaveLength(0)
  })

  it('paid, logs which tag was replaced by which order', async () => {
    const world = await transferWorld(t)
    const now = t.clock.now()
    const plan = (await findActivePlan(t.db, PLAN_IDS.proMonthly))!
    const orderId = await createOrder(t.db, {
      organizationId: world.organization.id,
      userId: world.admin.profile.id,
      items: [
        { productType: 'PLAN', productRefId: plan.id, quantity: 1, configuration: planConfiguration(plan) },
      ],
      status: 'PAID',
      now,
    })
    const input = { organizationId: world.organization.id, tagId: world.tag.id, orderId, now }
    expect(await replaceTag(t.db, input)).toBe(world.tag.id)
    const events = await t.db
      .select()
      .from(organizationEvents)
      .where(eq(organizationEvents.kind, 'tag.replaced'))
    expect(events).toEqual([
      expect.objectContaining({
        organizationId: world.organization.id,
        tagIds: [world.tag.id],
        payload: { orderId },
        actorId: null,
      }),
    ])
  })

  it('for another organization’s tag is a 404 that says no such tag', async () => {
    const world = await transferWorld(t)
    const other = await organizationWithAdmin(t, 'Autre')
    const response = await replace(other.admin.cookie, world.tag.id)
    expect(response.status).toBe(404)
    expect((await response.json()).error.message).toBe('No such tag.')
  })
})
