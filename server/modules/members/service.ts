import { and, asc, eq, ne, type SQL, sql } from 'drizzle-orm'
import type { Member } from '../../../contract/organizations.ts'
import type { Role } from '../../../contract/permissions.ts'
import type { Db } from '../../db/client.ts'
import { type MembershipRow, memberships, type UserRow, users } from '../../db/schema.ts'
import { notFound } from '../../http/errors.ts'

/** A membership with its account, and whether the account has a membership in another organization. */
export type MembershipView = { user: UserRow; membership: MembershipRow; elsewhere: boolean }

/**
 * True when the account is this organization's own invitee: INVITED here, never signed in and no membership
 * (whatever its status) in any other organization. Only then may an ADMIN edit its names and e-mail.
 */
export function isOwnInvitee(row: MembershipView): boolean {
  return row.membership.status === 'INVITED' && row.user.signedInAt === null && !row.elsewhere
}

/**
 * The member as the organization sees them. Names are the account's own: they show only once the member is
 * ACTIVE here (they signed in since being invited), or while the account is the organization's own invitee
 * (the names are then the ones its admins typed). Otherwise — an existing account invited, revoked, or
 * enabled again and not yet back — only the e-mail shows, so an invitation never reveals a stranger's name.
 */
export function toMember(row: MembershipView): Member {
  const { user, membership } = row
  const named = membership.status === 'ACTIVE' || isOwnInvitee(row)
  return {
    id: user.id,
    email: user.email,
    firstName: named ? user.firstName : '',
    lastName: named ? user.lastName : '',
    role: membership.role,
    status: membership.status,
    joinedAt: membership.createdAt.toISOString(),
  }
}

const elsewhere = (organizationId: string) =>
  sql<boolean>`exists (select 1 from memberships as other where other.user_id = ${users.id} and other.organization_id <> ${organizationId})`.mapWith(
    Boolean,
  )

/** The organization's memberships with their accounts (`MembershipView`), narrowed by `where`. */
export function membershipViews(db: Db, organizationId: string, where?: SQL) {
  return db
    .select({ user: users, membership: memberships, elsewhere: elsewhere(organizationId) })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.organizationId, organizationId), where))
}

const byName = (a: Member, b: Member) => {
  const key = (member: Member) => [
    member.lastName.toLowerCase(),
    member.firstName.toLowerCase(),
    member.email,
  ]
  const [x, y] = [key(a), key(b)]
  for (let i = 0; i < x.length; i += 1) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1
  return 0
}

/**
 * Every member of the organization, DISABLED ones included (an ADMIN can enable them again), by the names
 * shown (sorted after hiding, so the order reveals nothing of a hidden name either).
 */
export async function listMembers(db: Db, organizationId: string): Promise<Member[]> {
  const rows = await membershipViews(db, organizationId)
  return rows.map(toMember).sort(byName)
}

export async function findMembership(
  db: Db,
  organizationId: string,
  userId: string,
): Promise<MembershipView | null> {
  const [row] = await membershipViews(db, organizationId, eq(memberships.userId, userId))
  return row ?? null
}

/** A member of the organization; anybody else (including members of other organizations) is a 404. */
export async function getMember(db: Db, organizationId: string, userId: string): Promise<Member> {
  const row = await findMembership(db, organizationId, userId)
  if (!row) throw notFound('No such member.')
  return toMember(row)
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
