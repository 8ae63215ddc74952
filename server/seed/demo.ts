import { and, asc, between, eq, like } from 'drizzle-orm'
import { TAG_PRODUCT_ID } from '../../contract/commerce.ts'
import type { Role } from '../../contract/permissions.ts'
import type { Database, Db } from '../db/client.ts'
import { keychains, orders, organizations, places, tags as tagTable, transfers, users } from '../db/schema.ts'
import type { AppDeps } from '../deps.ts'
import { addKey } from '../modules/keychains/keys.ts'
import { createKeychain } from '../modules/keychains/service.ts'
import { addMembership } from '../modules/members/service.ts'
import { createOrder } from '../modules/orders/checkout.ts'
import { createOrganization } from '../modules/organizations/service.ts'
import { setKeychainHome } from '../modules/places/location.ts'
import { addHooks, createPlace } from '../modules/places/service.ts'
import { PLAN_IDS } from '../modules/plans/catalog.ts'
import { findActivePlan, planConfiguration } from '../modules/plans/service.ts'
import { startSubscription } from '../modules/subscriptions/service.ts'
import { createTags } from '../modules/tags/service.ts'
import { recordPickup } from '../modules/transfers/pickups.ts'
import { calendarDayIn, startOfDayIn } from '../shared/time-zones.ts'

/** The marker: a fixed id. Present means the demo was seeded already, and nothing is written again. */
export const DEMO_ORGANIZATION_ID = 'd3300000-0000-4000-8000-000000000001'
export const DEMO_ORGANIZATION_NAME = 'Agence Démo'

export const DEMO_MEMBERS: Array<{ role: Role; email: string; firstName: string; lastName: string }> = [
  { role: 'ADMIN', email: 'admin@demo.trousseau.test', firstName: 'Alice', lastName: 'Admin' },
  { role: 'MANAGER', email: 'manager@demo.trousseau.test', firstName: 'Marc', lastName: 'Manager' },
  { role: 'MEMBER', email: 'member@demo.trousseau.test', firstName: 'Mina', lastName: 'Membre' },
  { role: 'CONTACT', email: 'contact@demo.trousseau.test', firstName: 'Claude', lastName: 'Contact' },
]

export const DEMO_KEYCHAINS = 50
export const DEMO_TAGS = 60
/** Dark on light, as a scanner needs (and as the order schema requires of a tag line). */
const DEMO_TAG_COLORS = { foregroundColor: '#1d4ed8', backgroundColor: '#ffffff' }
export const DEMO_PLAN_ID = PLAN_IDS.proYearly
/** The demo's key board: a site, a room in it, and a board of 40 hooks that 30 keychains call home. */
export const DEMO_BOARD = { site: 'Siège', room: 'Accueil', board: 'Tableau A', prefix: 'A-', hooks: 40 }
export const DEMO_HOMED_KEYCHAINS = 30

const PLACES = [
  'Appartement',
  'Bureau',
  'Cave',
  'Local vélos',
  'Boîte aux lettres',
  'Parking',
  'Studio',
  'Atelier',
]
const STREETS = ['Rivoli', 'Oberkampf', 'Lepic', 'Monge', 'Cler', 'Daguerre', 'Mouffetard']

export type SeedReport = {
  created: boolean
  organizationId: string
  keychains: number
  tags: number
  /** Orders added: the DELIVERED order of the 60 tags and the paid yearly plan (0 when present already). */
  orders: number
  /** Transfers added: one SCHEDULED to the contact, one TRANSFERRED to the member (0 when present already). */
  transfers: number
  /** Places added: the site, the room and the board (0 when the organization has places already). */
  places: number
}

async function upsertUser(db: Db, member: (typeof DEMO_MEMBERS)[number], now: Date) {
  await db
    .insert(users)
    .values({ ...member, locale: 'fr', createdAt: now, lastSeenAt: now })
    .onConflictDoNothing({ target: users.email })
  const [user] = await db.select().from(users).where(eq(users.email, member.email))
  if (!user) throw new Error(`could not create ${member.email}`)
  return user
}

/**
 * Fills a database with a demo organization through the same services as the API: one member of each role,
 * 60 tags (50 on TAG keys, 10 free), 50 keychains with keys and custodians. All in one transaction, and only
 * once: with the demo organization present it writes nothing.
 */
export async function seedDemo(deps: Pick<AppDeps, 'database' | 'clock'>): Promise<SeedReport> {
  const [existing] = await deps.database.db
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.id, DEMO_ORGANIZATION_ID))
  const now = deps.clock.now()
  if (existing) {
    // A demo seeded before orders existed gets them now; otherwise nothing is written.
    return deps.database.db.transaction(async (tx) => ({
      created: false,
      organizationId: DEMO_ORGANIZATION_ID,
      keychains: 0,
      tags: 0,
      orders: await seedDemoOrders(tx, now),
      transfers: await seedDemoTransfers(tx, now),
      places: await seedDemoPlaces({ ...deps, database: { ...deps.database, db: tx } as Database }),
    }))
  }

  return deps.database.db.transaction(async (tx) => {
    const inTx = { ...deps, database: { ...deps.database, db: tx } as Database }
    const people = []
    for (const member of DEMO_MEMBERS) people.push({ ...member, user: await upsertUser(tx, member, now) })
    const admin = people[0]!.user
    await createOrganization(inTx, admin, {
      id: DEMO_ORGANIZATION_ID,
      name: DEMO_ORGANIZATION_NAME,
      address: { line1: '12 rue de Rivoli', line2: '', city: 'Paris', postalCode: '75004', country: 'FR' },
    })
    for (const person of people.slice(1)) {
      await addMembership(tx, {
        userId: person.user.id,
        organizationId: DEMO_ORGANIZATION_ID,
        role: person.role,
        status: 'ACTIVE',
        now,
      })
      if (!person.user.selectedOrganizationId) {
        await tx
          .update(users)
          .set({ selectedOrganizationId: DEMO_ORGANIZATION_ID })
          .where(eq(users.id, person.user.id))
      }
    }
    const tags = await createTags(
      tx,
      DEMO_ORGANIZATION_ID,
      {
        alphaCode: 'DEM',
        startNumber: 1,
        count: DEMO_TAGS,
        name: DEMO_ORGANIZATION_NAME,
        ...DEMO_TAG_COLORS,
      },
      now,
    )
    // Custodians go round the members, with every fifth keychain held by nobody (in the office safe).
    const custodians = [...people.map((person) => person.user.id), null]
    for (let index = 0; index < DEMO_KEYCHAINS; index += 1) {
      const place = PLACES[index % PLACES.length]!
      const street = STREETS[index % STREETS.length]!
      const keychain = await createKeychain(inTx, {
        organizationId: DEMO_ORGANIZATION_ID,
        actorId: admin.id,
        keychain: {
          name: `${place} ${index + 1} – rue ${street}`,
          custodianId: custodians[index % custodians.length],
        },
      })
      const target = { organizationId: DEMO_ORGANIZATION_ID, keychainId: keychain.id }
      await addKey(inTx, { ...target, key: { type: 'TAG', name: 'Étiquette', tagId: tags[index]!.id } })
      await addKey(inTx, { ...target, key: { type: 'KEY', name: 'Porte principale' } })
      if (index % 3 === 0) await addKey(inTx, { ...target, key: { type: 'KEY', name: 'Boîte aux lettres' } })
    }
    const orderCount = await seedDemoOrders(tx, now)
    return {
      created: true,
      organizationId: DEMO_ORGANIZATION_ID,
      keychains: DEMO_KEYCHAINS,
      tags: DEMO_TAGS,
      orders: orderCount,
      transfers: await seedDemoTransfers(tx, now),
      places: await seedDemoPlaces(inTx),
    }
  })
}

/**
 * The demo's places, once (none yet in the organization): the site, its room, the board of `DEMO_BOARD.hooks`
 * hooks, and the first `DEMO_HOMED_KEYCHAINS` keychains (by name) homed on its hooks in order, through the same
 * services as the API (each with its event). Answers how many places it added.
 */
async function seedDemoPlaces(deps: Pick<AppDeps, 'database' | 'clock'>): Promise<number> {
  const { db } = deps.database
  const [anyPlace] = await db
    .select({ id: places.id })
    .from(places)
    .where(eq(places.organizationId, DEMO_ORGANIZATION_ID))
    .limit(1)
  if (anyPlace) return 0
  const [admin] = await db.select().from(users).where(eq(users.email, DEMO_MEMBERS[0]!.email))
  if (!admin) return 0
  const actor = { organizationId: DEMO_ORGANIZATION_ID, actorId: admin.id }
  const site = await createPlace(deps, { ...actor, place: { name: DEMO_BOARD.site, kind: 'SITE' } })
  const room = await createPlace(deps, {
    ...actor,
    place: { name: DEMO_BOARD.room, kind: 'ROOM', parentId: site.id },
  })
  const board = await createPlace(deps, {
    ...actor,
    place: { name: DEMO_BOARD.board, kind: 'BOARD', parentId: room.id },
  })
  const { hooks } = await addHooks(deps, {
    ...actor,
    placeId: board.id,
    range: { prefix: DEMO_BOARD.prefix, from: 1, to: DEMO_BOARD.hooks, width: 2 },
  })
  const homed = await db
    .select({ id: keychains.id })
    .from(keychains)
    .where(eq(keychains.organizationId, DEMO_ORGANIZATION_ID))
    .orderBy(asc(keychains.sortName), asc(keychains.id))
    .limit(DEMO_HOMED_KEYCHAINS)
  for (const [index, keychain] of homed.entries())
    await setKeychainHome(db, { ...actor, id: keychain.id, hookId: hooks[index]!.id, now: deps.clock.now() })
  return 3
}

/**
 * The demo's orders, once: the 60 tags as one DELIVERED order (the tags linked to it), and a paid yearly Pro
 * plan with its subscription running from now. Answers how many orders it added (0 when there are some).
 */
async function seedDemoOrders(tx: Db, now: Date): Promise<number> {
  const [anyOrder] = await tx
    .select({ id: orders.id })
    .from(orders)
    .where(eq(orders.organizationId, DEMO_ORGANIZATION_ID))
    .limit(1)
  if (anyOrder) return 0
  const [admin] = await tx.select().from(users).where(eq(users.email, DEMO_MEMBERS[0]!.email))
  if (!admin) throw new Error('the demo admin is missing')
  const demoTags = and(
    eq(tagTable.organizationId, DEMO_ORGANIZATION_ID),
    eq(tagTable.alphaCode, 'DEM'),
    between(tagTable.number, 1, DEMO_TAGS),
  )
  const tagOrder = await createOrder(tx, {
    organizationId: DEMO_ORGANIZATION_ID,
    userId: admin.id,
    items: [
      {
        productType: 'TAG',
        productRefId: TAG_PRODUCT_ID,
        quantity: DEMO_TAGS,
        configuration: { name: DEMO_ORGANIZATION_NAME, alphaCode: 'DEM', startNumber: 1, ...DEMO_TAG_COLORS },
      },
    ],
    status: 'DELIVERED',
    now,
  })
  // (A demo seeded before had white-on-blue tags, which scanners read badly: they get the order's colours.)
  await tx
    .update(tagTable)
    .set({ orderId: tagOrder, ...DEMO_TAG_COLORS })
    .where(demoTags)
  const plan = await findActivePlan(tx, DEMO_PLAN_ID)
  if (!plan) throw new Error('the demo plan is missing: are the migrations applied?')
  const planOrder = await createOrder(tx, {
    organizationId: DEMO_ORGANIZATION_ID,
    userId: admin.id,
    items: [
      { productType: 'PLAN', productRefId: plan.id, quantity: 1, configuration: planConfiguration(plan) },
    ],
    status: 'PAID',
    now,
  })
  await startSubscription(tx, {
    organizationId: DEMO_ORGANIZATION_ID,
    planId: plan.id,
    plan: planConfiguration(plan),
    orderId: planOrder,
    now,
  })
  return 2
}

/**
 * The demo's transfers, once (none yet in the organization): "Appartement 1" (held by the admin) SCHEDULED to
 * the contact from today for three days, and "Bureau 2" (held by the manager) authorized from yesterday to the
 * day after tomorrow and picked up by the member. Answers how many it added.
 */
async function seedDemoTransfers(tx: Db, now: Date): Promise<number> {
  const [anyTransfer] = await tx
    .select({ id: transfers.id })
    .from(transfers)
    .where(eq(transfers.organizationId, DEMO_ORGANIZATION_ID))
    .limit(1)
  if (anyTransfer) return 0
  const person = async (index: number) =>
    (await tx.select().from(users).where(eq(users.email, DEMO_MEMBERS[index]!.email)))[0]
  const [admin, member, contact] = [await person(0), await person(2), await person(3)]
  const keychain = async (prefix: string) =>
    (
      await tx
        .select()
        .from(keychains)
        .where(and(eq(keychains.organizationId, DEMO_ORGANIZATION_ID), like(keychains.name, `${prefix} –%`)))
    )[0]
  const [flat, office] = [await keychain('Appartement 1'), await keychain('Bureau 2')]
  if (!admin || !member || !contact || !flat || !office) return 0
  const [organization] = await tx
    .select()
    .from(organizations)
    .where(eq(organizations.id, DEMO_ORGANIZATION_ID))
  const timeZone = organization!.timeZone
  const day = (offset: number) =>
    calendarDayIn(timeZone, new Date(now.getTime() + offset * 24 * 60 * 60 * 1000))
  const authorize = async (target: typeof flat, recipientId: string, from: string, to: string) => {
    const [row] = await tx
      .insert(transfers)
      .values({
        organizationId: DEMO_ORGANIZATION_ID,
        keychainId: target.id,
        keychainName: target.name,
        recipientId,
        authorizedById: admin.id,
        fromDate: from,
        toDate: to,
        startsAt: startOfDayIn(timeZone, from),
        endsAt: startOfDayIn(timeZone, to),
        status: 'SCHEDULED',
        createdAt: now,
      })
      .returning()
    return row!
  }
  await authorize(flat, contact.id, day(0), day(3))
  const lent = await authorize(office, member.id, day(-1), day(2))
  await recordPickup(tx, { caller: member, transferId: lent.id, clientTime: null, fromQueue: false, now })
  return 2
}
