import { eq } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { type OrganizationRow, organizations } from '../db/schema.ts'

/** The organization row of this id, or null. */
export async function findOrganization(db: Db, id: string): Promise<OrganizationRow | null> {
  const [row] = await db.select().from(organizations).where(eq(organizations.id, id))
  return row ?? null
}
