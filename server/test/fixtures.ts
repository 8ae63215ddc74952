import { eq } from 'drizzle-orm'
import type { Role } from '../../contract/permissions.ts'
import { memberships, organizations, users } from '../db/schema.ts'
import type { TestApp } from './harness.ts'

type MembershipStatus = (typeof memberships.$inferInsert)['status']

/** Inserts an organization directly (until the organization endpoints exist, and for speed after). */
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
