import { count, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import type { Place, PlaceDetail } from '../../contract/places.ts'
import { setupTestApp } from '../../tests/server/harness.ts'
import {
  custodyLog,
  keychains,
  keys,
  memberships,
  orders as ordersTable,
  places,
  subscriptions,
  tags,
  transfers,
} from '../db/schema.ts'
import {
  DEMO_BOARD,
  DEMO_HOMED_KEYCHAINS,
  DEMO_KEYCHAINS,
  DEMO_MEMBERS,
  DEMO_ORGANIZATION_ID,
  DEMO_PLAN_ID,
  DEMO_TAGS,
  seedDemo,
} from './demo.ts'

const t = setupTestApp()

describe('seedDemo', () => {
  it('creates the demo organization once, and each demo member sees what their role allows', async () => {
    const first = await seedDemo(t.deps)
    expect(first).toMatchObject({
      created: true,
      keychains: DEMO_KEYCHAINS,
      tags: DEMO_TAGS,
      orders: 2,
      transfers: 2,
    })
    expect(await seedDemo(t.deps)).toMatchObject({ created: false, orders: 0, transfers: 0 })

    const countOf = async (table: typeof keychains | typeof tags | typeof memberships) =>
      (
        await t.db.select({ n: count() }).from(table).where(eq(table.organizationId, DEMO_ORGANIZATION_ID))
      )[0]!.n
    expect(await countOf(keychains)).toBe(DEMO_KEYCHAINS)
    expect(await countOf(tags)).toBe(DEMO_TAGS)
    expect(await countOf(memberships)).toBe(DEMO_MEMBERS.length)
    expect((await t.db.select({ n: count() }).from(keys))[0]!.n).toBeGreaterThan(DEMO_KEYCHAINS * 2)
    // 40 keychains with a custodian, and the member's pickup.
    expect((await t.db.select({ n: count() }).from(custodyLog))[0]!.n).toBe(41)

    const manager = await t.signIn('manager@demo.trousseau.test')
    expect(manager.profile.selectedOrganizationId).toBe(DEMO_ORGANIZATION_ID)
    const page = await (await t.get('/api/keychains?limit=100', { cookie: manager.cookie })).json()
    expect(page.data).toHaveLength(DEMO_KEYCHAINS)
    const free = await (await t.get('/api/tags?unused=true', { cookie: manager.cookie })).json()
    expect(free.data).toHaveLength(DEMO_TAGS - DEMO_KEYCHAINS)
    const contact = await t.signIn('contact@demo.trousseau.test')
    expect((await t.get('/api/keychains', { cookie: contact.cookie })).status).toBe(403)

    const admin = await t.signIn('admin@demo.trousseau.test')
    const orders = await (await t.get('/api/orders', { cookie: admin.cookie })).json()
    expect(
      orders.data.map((order: { status: string; quantity: number }) => [order.status, order.quantity]),
    ).toEqual(
      expect.arrayContaining([
        ['DELIVERED', DEMO_TAGS],
        ['PAID', 0],
      ]),
    )
    const delivered = orders.data.find((order: { status: string }) => order.status === 'DELIVERED')
    const details = await (
      await t.get(`/api/orders/${delivered.id}/details`, { cookie: admin.cookie })
    ).json()
    expect(details.tags).toHaveLength(DEMO_TAGS)
    const { subscription } = await (
      await t.get(`/api/organizations/${DEMO_ORGANIZATION_ID}/subscription`, { cookie: admin.cookie })
    ).json()
    expect(subscription).toMatchObject({
      planId: DEMO_PLAN_ID,
      billingCycle: 'YEARLY',
      status: 'ACTIVE',
      transfersUsedThisMonth: 2,
    })

    const requests = async (cookie: string) =>
      (await (await t.get('/api/transfers/requests', { cookie })).json()).data
    expect(await requests(contact.cookie)).toMatchObject([{ status: 'SCHEDULED', next: 'PICKUP' }])
    const member = await t.signIn('member@demo.trousseau.test')
    expect(await requests(member.cookie)).toMatchObject([
      { status: 'TRANSFERRED', pickups: [{ kind: 'PICKUP', by: { email: 'member@demo.trousseau.test' } }] },
    ])
  })

  it('adds the orders and transfers to a demo seeded before they existed, once', async () => {
    await t.reset()
    await seedDemo(t.deps)
    await t.db.delete(subscriptions)
    await t.db.delete(ordersTable)
    expect(await seedDemo(t.deps)).toMatchObject({ created: false, orders: 2, transfers: 0 })
    expect(await seedDemo(t.deps)).toMatchObject({ created: false, orders: 0, transfers: 0 })
    expect((await t.db.select({ n: count() }).from(ordersTable))[0]!.n).toBe(2)
    await t.db.delete(transfers)
    expect(await seedDemo(t.deps)).toMatchObject({ created: false, orders: 0, transfers: 2 })
    expect(await seedDemo(t.deps)).toMatchObject({ created: false, orders: 0, transfers: 0 })
  })

  it('hangs 30 keychains on board "Tableau A" (A-01…A-40) in a room of a site, once; an older demo gets it', async () => {
    await t.reset()
    expect(await seedDemo(t.deps)).toMatchObject({ created: true, places: 3 })
    expect(await seedDemo(t.deps)).toMatchObject({ created: false, places: 0 })
    const manager = await t.signIn('manager@demo.trousseau.test')
    const tree = (await (await t.get('/api/places', { cookie: manager.cookie })).json()) as { data: Place[] }
    expect(
      tree.data.map((place) => [place.name, place.kind, place.depth, place.hookCount, place.homeCount]),
    ).toEqual([
      [DEMO_BOARD.site, 'SITE', 0, 0, DEMO_HOMED_KEYCHAINS],
      [DEMO_BOARD.room, 'ROOM', 1, 0, DEMO_HOMED_KEYCHAINS],
      [DEMO_BOARD.board, 'BOARD', 2, DEMO_BOARD.hooks, DEMO_HOMED_KEYCHAINS],
    ])
    const board = (await (
      await t.get(`/api/places/${tree.data[2]!.id}`, { cookie: manager.cookie })
    ).json()) as PlaceDetail
    expect(board.hooks.map((hook) => hook.code)).toEqual(
      Array.from({ length: DEMO_BOARD.hooks }, (_, index) => `A-${String(index + 1).padStart(2, '0')}`),
    )
    expect(board.hooks.slice(0, DEMO_HOMED_KEYCHAINS).every((hook) => hook.homeOf.length === 1)).toBe(true)
    expect(board.hooks.slice(DEMO_HOMED_KEYCHAINS).every((hook) => hook.homeOf.length === 0)).toBe(true)
    // A demo seeded before places existed gets them.
    await t.db.update(keychains).set({ homeHookId: null })
    await t.db.delete(places).where(eq(places.kind, 'BOARD'))
    await t.db.delete(places).where(eq(places.kind, 'ROOM'))
    await t.db.delete(places)
    expect(await seedDemo(t.deps)).toMatchObject({ created: false, places: 3 })
  })
})
