import { eq } from 'drizzle-orm'
import type { Address } from '../../contract/organizations.ts'
import type { Db } from '../db/client.ts'
import { type OrganizationRow, organizations } from '../db/schema.ts'

/** The organization row of this id, or null. */
export async function findOrganization(db: Db, id: string): Promise<OrganizationRow | null> {
  const [row] = await db.select().from(organizations).where(eq(organizations.id, id))
  return row ?? null
}

/** The organization's postal address (where its keychains are picked up and brought back, where tags are sent). */
export function addressOf(organization: OrganizationRow): Address {
  return {
    line1: organization.addressLine1,
    line2: organization.addressLine2,
    city: organization.city,
    postalCode: organization.postalCode,
    country: organization.country,
  }
}
