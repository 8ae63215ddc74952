import { eq } from 'drizzle-orm'
import type { Role } from '../../contract/permissions.ts'
import { keychains, memberships, organizations, type TagRow, users } from '../db/schema.ts'
import { createTags } from '../modules/tags/service.ts'
import { type SignedIn, type TestApp, uniqueEmail } from './harness.ts'

type MembershipStatus = (typeof memberships.$inferInsert)['status']

/** A valid `POST /api/organizations` body (with spaces and a lower-case country the schema normalizes). */
export const NEW_ORGANIZATION = {
  name: '  Agence du Port ',
  address: { line1: '3 quai Est', city: 'Marseille', postalCode: '13002', country: 'fr' },
}

/** Inserts an organization directly (fast; the endpoint has its own tests). */
export async function createOrganization(t: TestApp, name = 'Acme') {
  const [organization] = await t.db
    .insert(organizations)
    .values({
      name,
      addressLine1: '1 rue de la Paix',
      city: 'Paris',
      postalCode: '75002',
      country: 'FR',
      createdAt: t.clock.now(),
    })
    .returning()
  return organization!
}

export async function addMember(
  t: TestApp,
  input: { userId: string; organizationId: string; role: Role; status?: MembershipStatus; select?: boolean },
) {
  await t.db.insert(memberships).values({
    userId: input.userId,
    organizationId: input.organizationId,
    role: input.role,
    status: input.status ?? 'ACTIVE',
    createdAt: t.clock.now(),
  })
  if (input.select ?? true) {
    await t.db
      .update(users)
      .set({ selectedOrganizationId: input.organizationId })
      .where(eq(users.id, input.userId))
  }
}

export type Member = SignedIn & { id: string; email: string }

/** A new user, signed in, with an ACTIVE membership of the given role in the organization (selected). */
export async function signedInMember(
  t: TestApp,
  organizationId: string,
  role: Role,
  options: { status?: MembershipStatus; select?: boolean } = {},
): Promise<Member> {
  const email = uniqueEmail(role.toLowerCase())
  const signedIn = await t.signIn(email)
  await addMember(t, { userId: signedIn.profile.id, organizationId, role, ...options })
  return { ...signedIn, id: signedIn.profile.id, email }
}

/** An organization with a signed-in ADMIN who has it selected. */
export async function organizationWithAdmin(t: TestApp, name = 'Acme') {
  const organization = await createOrganization(t, name)
  const admin = await signedInMember(t, organization.id, 'ADMIN')
  return { organization, admin }
}

let nextTagNumber = 1

/** Tags through the service, numbered on from every earlier call so codes never collide. */
export async function makeTags(
  t: TestApp,
  organizationId: string,
  count = 1,
  alphaCode = 'TST',
): Promise<TagRow[]> {
  const startNumber = nextTagNumber
  nextTagNumber += count
  return createTags(
    t.db,
    organizationId,
    { alphaCode, startNumber, count, name: 'Test', foregroundColor: '#111111', backgroundColor: '#ffee00' },
    t.clock.now(),
  )
}

/** A keychain inserted directly (no custody log entry). */
export async function makeKeychain(
  t: TestApp,
  organizationId: string,
  name = 'Keychain',
  custodianId?: string,
) {
  const now = t.clock.now()
  const [row] = await t.db
    .insert(keychains)
    .values({ organizationId, name, custodianId: custodianId ?? null, createdAt: now, updatedAt: now })
    .returning()
  return row!
}
