import { and, asc, eq, ne, sql } from 'drizzle-orm'
import type { Person } from '../../../contract/common.ts'
import type { Member } from '../../../contract/organizations.ts'
import type { Role } from '../../../contract/permissions.ts'
import type { Db } from '../../db/client.ts'
import { type MembershipRow, memberships, type UserRow, users } from '../../db/schema.ts'
import { notFound } from '../../http/errors.ts'

export function toPerson(user: Pick<UserRow, 'id' | 'email' | 'firstName' | 'lastName'>): Person {
  return { id: user.id, email: user.email, firstName: user.firstName, lastName: user.lastName }
}

export function toMember(user: UserRow, membership: MembershipRow): Member {
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    role: membership.role,
    status: membership.status,
    joinedAt: membership.createdAt.toISOString(),
  }
}

/** Every member of the organization, DISABLED ones included (an ADMIN can enable them again). */
export async function listMembers(db: Db, organizationId: string): Promise<Member[]> {
  const rows = await db
    .select({ user: users, membership: memberships })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.organizationId, organizationId))
    .orderBy(asc(sql`lower(${users.lastName})`), asc(sql`lower(${users.firstName})`), asc(users.email))
  return rows.map((row) => toMember(row.user, row.membership))
}

export async function findMembership(db: Db, organizationId: string, userId: string) {
  const [row] = await db
    .select({ user: users, membership: memberships })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)))
  return row ?? null
}

/** A member of the organization; anybody else (including members of other organizations) is a 404. */
export async function getMember(db: Db, organizationId: string, userId: string): Promise<Member> {
  const row = await findMembership(db, organizationId, userId)
  if (!row) throw notFound('No such member.')
  return toMember(row.user, row.membership)
}

/** Inserts a membership; false when the user already has one in the organization (any status). */
export async function addMembership(
  db: Db,
  input: { userId: string; organizationId: string; role: Role; status: MembershipRow['status']; now: Date },
): Promise<boolean> {
  const inserted = await db
    .insert(memberships)
    .values({
      userId: input.userId,
      organizationId: input.organizationId,
      role: input.role,
      status: input.status,
      createdAt: input.now,
    })
    .onConflictDoNothing()
    .returning({ userId: memberships.userId })
  return inserted.length > 0
}

/** Custodians are members who are not DISABLED. */
export async function isCustodianCandidate(db: Db, organizationId: string, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(
      and(
        eq(memberships.organizationId, organizationId),
        eq(memberships.userId, userId),
        ne(memberships.status, 'DISABLED'),
      ),
    )
  return row !== undefined
}

/**
 * At a successful sign-in: INVITED memberships become ACTIVE, and a user without a selected organization
 * gets their oldest membership selected (an invitee lands in the organization that invited them).
 */
export async function activateMemberships(db: Db, user: UserRow, now: Date): Promise<UserRow> {
  await db
    .update(memberships)
    .set({ status: 'ACTIVE' })
    .where(and(eq(memberships.userId, user.id), eq(memberships.status, 'INVITED')))
  let selected = user.selectedOrganizationId
  if (!selected) {
    const [first] = await db
      .select({ organizationId: memberships.organizationId })
      .from(memberships)
      .where(and(eq(memberships.userId, user.id), ne(memberships.status, 'DISABLED')))
      .orderBy(asc(memberships.createdAt))
      .limit(1)
    selected = first?.organizationId ?? null
  }
  const [updated] = await db
    .update(users)
    .set({ signedInAt: now, selectedOrganizationId: selected })
    .where(eq(users.id, user.id))
    .returning()
  return updated ?? user
}
