import { and, asc, eq, ne, sql } from 'drizzle-orm'
import type { Organization, OrganizationCreate, OrganizationUpdate } from '../../../contract/organizations.ts'
import type { Role } from '../../../contract/permissions.ts'
import type { Db } from '../../db/client.ts'
import { memberships, type OrganizationRow, organizations, type UserRow, users } from '../../db/schema.ts'
import type { AppDeps } from '../../deps.ts'
import { notFound } from '../../http/errors.ts'
import { memberRole } from '../../http/member-role.ts'
import { addressOf, findOrganization } from '../../shared/organization.ts'

type Deps = Pick<AppDeps, 'database' | 'clock'>

function toOrganization(row: OrganizationRow, role: Role): Organization {
  return {
    id: row.id,
    name: row.name,
    address: addressOf(row),
    timeZone: row.timeZone,
    stocktakeRole: row.stocktakeRole,
    handoverReceivers: row.handoverReceivers,
    role,
    createdAt: row.createdAt.toISOString(),
  }
}

/** The organizations the user belongs to (INVITED or ACTIVE, not DISABLED), by name. */
export async function listOrganizations(db: Db, userId: string): Promise<Organization[]> {
  const rows = await db
    .select({ organization: organizations, role: memberships.role })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .where(and(eq(memberships.userId, userId), ne(memberships.status, 'DISABLED')))
    .orderBy(asc(sql`lower(${organizations.name})`), asc(organizations.id))
  return rows.map((row) => toOrganization(row.organization, row.role))
}

/** The organization seen by one of its members (the router already checked the membership). */
export async function getOrganization(db: Db, id: string, role: Role): Promise<Organization> {
  const row = await findOrganization(db, id)
  if (!row) throw notFound('No such organization.')
  return toOrganization(row, role)
}

/**
 * Changes the settings sent (an ADMIN's: the router checked `update__organization`); nothing sent changes
 * nothing. The stocktake role applies to the next scan of every open stocktake too; who may be handed a keychain
 * applies to the next handover that reaches the server (however long ago the phones made it).
 */
export async function updateOrganization(
  db: Db,
  id: string,
  role: Role,
  input: OrganizationUpdate,
): Promise<Organization> {
  const changes = {
    ...(input.stocktakeRole ? { stocktakeRole: input.stocktakeRole } : {}),
    ...(input.handoverReceivers ? { handoverReceivers: input.handoverReceivers } : {}),
  }
  const [row] =
    Object.keys(changes).length === 0
      ? [await findOrganization(db, id)]
      : await db.update(organizations).set(changes).where(eq(organizations.id, id)).returning()
  if (!row) throw notFound('No such organization.')
  return toOrganization(row, role)
}

/** The creator becomes its ACTIVE ADMIN, and it becomes their selected organization if they had none. */
export async function createOrganization(
  deps: Deps,
  user: UserRow,
  input: OrganizationCreate & { id?: string },
): Promise<Organization> {
  const now = deps.clock.now()
  return deps.database.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(organizations)
      .values({
        ...(input.id ? { id: input.id } : {}),
        name: input.name,
        addressLine1: input.address.line1,
        addressLine2: input.address.line2 ?? '',
        city: input.address.city,
        postalCode: input.address.postalCode,
        country: input.address.country,
        createdAt: now,
      })
      .returning()
    if (!row) throw new Error('organization insert returned no row')
    await tx
      .insert(memberships)
      .values({ userId: user.id, organizationId: row.id, role: 'ADMIN', status: 'ACTIVE', createdAt: now })
    await tx
      .update(users)
      .set({ selectedOrganizationId: row.id })
      .where(and(eq(users.id, user.id), sql`${users.selectedOrganizationId} is null`))
    return toOrganization(row, 'ADMIN')
  })
}

/** Selects an organization the user belongs to (INVITED or ACTIVE); any other id is a 404. */
export async function selectOrganization(db: Db, userId: string, organizationId: string): Promise<void> {
  if (!(await memberRole(db, userId, organizationId))) throw notFound('No such organization.')
  await db.update(users).set({ selectedOrganizationId: organizationId }).where(eq(users.id, userId))
}
