import { and, eq, ne } from 'drizzle-orm'
import type { Role } from '../../contract/permissions.ts'
import type { Db } from '../db/client.ts'
import { memberships } from '../db/schema.ts'

/**
 * The user's role in the organization, or null when they are not a member or their membership is DISABLED.
 * An INVITED membership counts: only a signed-in user asks, and signing in proved the invited address.
 */
export async function memberRole(db: Db, userId: string, organizationId: string): Promise<Role | null> {
  const [membership] = await db
    .select({ role: memberships.role })
    .from(memberships)
    .where(
      and(
        eq(memberships.userId, userId),
        eq(memberships.organizationId, organizationId),
        ne(memberships.status, 'DISABLED'),
      ),
    )
  return membership?.role ?? null
}
