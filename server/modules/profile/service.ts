import { and, eq } from 'drizzle-orm'
import type { Profile, ProfileUpdate } from '../../../contract/auth.ts'
import { permissionsFor } from '../../../contract/permissions.ts'
import { memberships, type UserRow } from '../../db/schema.ts'
import type { AppDeps } from '../../deps.ts'
import { updateUser } from '../users/service.ts'

type Deps = Pick<AppDeps, 'database' | 'config'>

export function isOperator(deps: Pick<Deps, 'config'>, email: string): boolean {
  return deps.config.operatorEmails.includes(email.toLowerCase())
}

/** The role of an ACTIVE membership in the organization, else null. */
export async function activeRole(deps: Pick<Deps, 'database'>, userId: string, organizationId: string) {
  const [membership] = await deps.database.db
    .select({ role: memberships.role })
    .from(memberships)
    .where(
      and(
        eq(memberships.userId, userId),
        eq(memberships.organizationId, organizationId),
        eq(memberships.status, 'ACTIVE'),
      ),
    )
  return membership?.role ?? null
}

/** Permissions come from the membership in the selected organization, plus the operator's own. */
export async function profileOf(deps: Deps, user: UserRow): Promise<Profile> {
  const operator = isOperator(deps, user.email)
  const role = user.selectedOrganizationId
    ? await activeRole(deps, user.id, user.selectedOrganizationId)
    : null
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    phoneNumber: user.phoneNumber,
    locale: user.locale,
    isOperator: operator,
    selectedOrganizationId: user.selectedOrganizationId,
    permissions: permissionsFor(role, operator),
  }
}

export async function updateProfile(deps: Deps, user: UserRow, update: ProfileUpdate): Promise<Profile> {
  return profileOf(deps, await updateUser(deps, user.id, update))
}
