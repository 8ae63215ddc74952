import { and, eq, inArray, ne } from 'drizzle-orm'
import type { Role } from '../../contract/permissions.ts'
import type { Db } from '../db/client.ts'
import { memberships, users } from '../db/schema.ts'

/** The organization's ACTIVE members with one of `roles` (but `except`), to write to in their language. */
export function activeMembersWith(db: Db, organizationId: string, roles: Role[], except?: string) {
  return db
    .select({ id: users.id, email: users.email, locale: users.locale })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(
      and(
        eq(memberships.organizationId, organizationId),
        eq(memberships.status, 'ACTIVE'),
        inArray(memberships.role, roles),
        except ? ne(users.id, except) : undefined,
      ),
    )
}
