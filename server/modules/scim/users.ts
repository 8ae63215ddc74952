import { and, asc, count, eq, isNull, ne, type SQL } from 'drizzle-orm'
import type { MemberUpdate } from '../../../contract/organizations.ts'
import type { Role } from '../../../contract/permissions.ts'
import {
  SCIM_LIST_SCHEMA,
  SCIM_USER_SCHEMA,
  type ScimUser,
  type ScimUserInput,
} from '../../../contract/scim.ts'
import type { Db } from '../../db/client.ts'
import { memberships, users } from '../../db/schema.ts'
import type { AppDeps } from '../../deps.ts'
import { appendEvent } from '../events/append.ts'
import { isOwnInvitee, type MembershipView, membershipViews, toMember } from '../members/service.ts'
import { updateMember } from '../members/update.ts'
import { ScimError, scimNotFound } from './errors.ts'
import type { ScimFilter } from './filter.ts'

type Deps = Pick<AppDeps, 'database' | 'clock' | 'config' | 'jobs' | 'logger'>

/** Who provisions: the organization of the SCIM token, its creator (the actions are recorded as theirs) and the
 * role of the people it adds. */
export type ScimCaller = { organizationId: string; actorId: string; role: Role }

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** The people the provider manages: the organization's memberships it has not deleted. */
const provisioned = (db: Db, organizationId: string, where?: SQL) =>
  membershipViews(db, organizationId, and(isNull(memberships.scimRemovedAt), where))

export function scimLocation(publicUrl: string, id: string): string {
  return new URL(`scim/v2/Users/${id}`, publicUrl.endsWith('/') ? publicUrl : `${publicUrl}/`).toString()
}

/** The person as the identity provider reads them; their names only where the organization may see them. */
export function toScimUser(row: MembershipView, publicUrl: string): ScimUser {
  const member = toMember(row)
  const formatted = `${member.firstName} ${member.lastName}`.trim()
  return {
    schemas: [SCIM_USER_SCHEMA],
    id: row.user.id,
    ...(row.membership.externalId === null ? {} : { externalId: row.membership.externalId }),
    userName: row.user.email,
    name: { givenName: member.firstName, familyName: member.lastName, formatted },
    displayName: formatted || row.user.email,
    emails: [{ value: row.user.email, type: 'work', primary: true }],
    active: row.membership.status !== 'DISABLED',
    meta: {
      resourceType: 'User',
      created: row.membership.createdAt.toISOString(),
      location: scimLocation(publicUrl, row.user.id),
    },
  }
}

export async function findScimUser(db: Db, organizationId: string, id: string): Promise<MembershipView> {
  if (!UUID.test(id)) throw scimNotFound('No such user.')
  const [row] = await provisioned(db, organizationId, eq(users.id, id))
  if (!row) throw scimNotFound('No such user.')
  return row
}

/** A page of the organization's people (disabled ones included: `active: false`), oldest membership first. */
export async function listScimUsers(
  deps: Pick<Deps, 'database' | 'config'>,
  caller: Pick<ScimCaller, 'organizationId'>,
  query: { filter: ScimFilter | null; startIndex: number; count: number },
) {
  const { db } = deps.database
  const where = query.filter
    ? query.filter.attribute === 'userName'
      ? eq(users.email, query.filter.value)
      : eq(memberships.externalId, query.filter.value)
    : undefined
  const [total] = await db
    .select({ n: count() })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(
      and(eq(memberships.organizationId, caller.organizationId), isNull(memberships.scimRemovedAt), where),
    )
  const startIndex = Math.max(1, query.startIndex)
  const rows =
    query.count === 0
      ? []
      : await provisioned(db, caller.organizationId, where)
          .orderBy(asc(memberships.createdAt), asc(memberships.userId))
          .offset(startIndex - 1)
          .limit(query.count)
  return {
    schemas: [SCIM_LIST_SCHEMA],
    // A count always answers one row.
    totalResults: total!.n,
    itemsPerPage: rows.length,
    startIndex,
    Resources: rows.map((row) => toScimUser(row, deps.config.publicUrl)),
  }
}

async function assertExternalIdFree(db: Db, organizationId: string, externalId: string, userId: string) {
  // Stryker disable ObjectLiteral: only whether a row comes back matters, not which columns it has
  const [taken] = await db
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(
      and(
        eq(memberships.organizationId, organizationId),
        eq(memberships.externalId, externalId),
        ne(memberships.userId, userId),
      ),
    )
  // Stryker restore ObjectLiteral
  if (taken) throw new ScimError(409, 'Another person of the organization has this externalId.', 'uniqueness')
}

/**
 * Adds a person to the organization with the token's role: a new account (with the provider's names) or an
 * existing one (its own names stay), INVITED — lendable keys from day one, ACTIVE at their first sign-in — or
 * DISABLED when created inactive. No invitation mail: the provider tells its people how to sign in. A person
 * the provider deleted earlier comes back on the same membership. Already there: 409 `uniqueness`.
 */
export async function createScimUser(
  deps: Deps,
  caller: ScimCaller,
  input: ScimUserInput,
): Promise<ScimUser> {
  const now = deps.clock.now()
  const { organizationId } = caller
  const externalId = input.externalId ?? null
  const userId = await deps.database.db.transaction(async (tx) => {
    await tx
      .insert(users)
      .values({
        email: input.userName,
        firstName: input.name?.givenName ?? '',
        lastName: input.name?.familyName ?? '',
        createdAt: now,
        lastSeenAt: now,
      })
      // On the e-mail: the only key a new account can collide on (its id is random).
      .onConflictDoNothing()
    const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.email, input.userName))
    // Stryker disable next-line ConditionalExpression,StringLiteral,CallExpression: unreachable, the row was inserted or already there
    if (!user) throw new Error('provisioned user vanished')
    if (externalId !== null) await assertExternalIdFree(tx, organizationId, externalId, user.id)
    const [existing] = await tx
      .select()
      .from(memberships)
      .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, user.id)))
    const status = input.active ? 'INVITED' : 'DISABLED'
    if (existing && existing.scimRemovedAt === null) {
      throw new ScimError(409, 'This person is already a member of the organization.', 'uniqueness')
    }
    if (existing) {
      await tx
        .update(memberships)
        .set({ scimRemovedAt: null, externalId, status })
        .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, user.id)))
    } else {
      await tx
        .insert(memberships)
        .values({ userId: user.id, organizationId, role: caller.role, status, createdAt: now, externalId })
    }
    await appendEvent(tx, {
      organizationId,
      kind: 'member.invited',
      actorId: caller.actorId,
      serverTime: now,
      payload: { memberId: user.id, role: existing?.role ?? caller.role },
    })
    return user.id
  })
  return toScimUser(await findScimUser(deps.database.db, organizationId, userId), deps.config.publicUrl)
}

/** What a replace or patch asks the person to become; absent: unchanged. */
export type ScimChange = {
  userName?: string
  externalId?: string | null
  givenName?: string
  familyName?: string
  active?: boolean
}

/**
 * Applies a change through the members' own rules (`updateMember`): `active: false` disables the membership and
 * ends what it gave at once (sessions, when it was their last organization; the leaver alert when they hold
 * keys), `active: true` enables it again. Names and e-mail are the account's: the provider's change applies
 * while the person is the organization's own invitee who never signed in; afterwards the names are left as the
 * person keeps them and a new e-mail is refused (`mutability`).
 */
export async function changeScimUser(
  deps: Deps,
  caller: ScimCaller,
  id: string,
  change: ScimChange,
): Promise<ScimUser> {
  const { db } = deps.database
  const current = await findScimUser(db, caller.organizationId, id)
  const ownInvitee = isOwnInvitee(current)
  // A new e-mail, or undefined (none asked, or the same one).
  const email = change.userName === current.user.email ? undefined : change.userName
  if (email !== undefined) {
    if (!ownInvitee) {
      throw new ScimError(
        400,
        'userName can change only while the person has not signed in yet and belongs to no other organization.',
        'mutability',
      )
    }
    // Stryker disable next-line ObjectLiteral: only whether a row comes back matters, not which columns it has
    const [taken] = await db.select({ id: users.id }).from(users).where(eq(users.email, email))
    if (taken) throw new ScimError(409, 'Another account already uses this userName.', 'uniqueness')
  }
  if (change.externalId !== undefined && change.externalId !== current.membership.externalId) {
    if (change.externalId !== null)
      await assertExternalIdFree(db, caller.organizationId, change.externalId, id)
    await db
      .update(memberships)
      .set({ externalId: change.externalId })
      .where(and(eq(memberships.organizationId, caller.organizationId), eq(memberships.userId, id)))
  }
  const disabled = current.membership.status === 'DISABLED'
  const status: MemberUpdate['status'] =
    change.active === undefined || change.active === !disabled
      ? undefined
      : change.active
        ? 'ACTIVE'
        : 'DISABLED'
  const update = {
    ...(ownInvitee && change.givenName !== undefined ? { firstName: change.givenName } : {}),
    ...(ownInvitee && change.familyName !== undefined ? { lastName: change.familyName } : {}),
    ...(email !== undefined ? { email } : {}),
    ...(status ? { status } : {}),
  }
  if (Object.keys(update).length > 0) {
    await updateMember(deps, {
      organizationId: caller.organizationId,
      actorId: caller.actorId,
      userId: id,
      update,
    })
  }
  return toScimUser(await findScimUser(db, caller.organizationId, id), deps.config.publicUrl)
}

/**
 * The provider deletes the person: their membership is disabled (as `active: false` would) and leaves the
 * provider's `/Users`; the organization keeps them, DISABLED, with their history and what they still hold.
 */
export async function deleteScimUser(deps: Deps, caller: ScimCaller, id: string): Promise<void> {
  await changeScimUser(deps, caller, id, { active: false })
  await deps.database.db
    .update(memberships)
    .set({ scimRemovedAt: deps.clock.now() })
    .where(and(eq(memberships.organizationId, caller.organizationId), eq(memberships.userId, id)))
}
