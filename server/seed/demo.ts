import { eq } from 'drizzle-orm'
import type { Role } from '../../contract/permissions.ts'
import type { Database, Db } from '../db/client.ts'
import { organizations, users } from '../db/schema.ts'
import type { AppDeps } from '../deps.ts'
import { addKey } from '../modules/keychains/keys.ts'
import { createKeychain } from '../modules/keychains/service.ts'
import { addMembership } from '../modules/members/service.ts'
import { createOrganization } from '../modules/organizations/service.ts'
import { createTags } from '../modules/tags/service.ts'

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

export type SeedReport = { created: boolean; organizationId: string; keychains: number; tags: number }

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
  if (existing) return { created: false, organizationId: DEMO_ORGANIZATION_ID, keychains: 0, tags: 0 }

  const now = deps.clock.now()
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
        foregroundColor: '#ffffff',
        backgroundColor: '#1d4ed8',
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
    return { created: true, organizationId: DEMO_ORGANIZATION_ID, keychains: DEMO_KEYCHAINS, tags: DEMO_TAGS }
  })
}
