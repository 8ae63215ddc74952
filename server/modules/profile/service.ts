import type { Profile, ProfileUpdate } from '../../../contract/auth.ts'
import { permissionsFor } from '../../../contract/permissions.ts'
import type { UserRow } from '../../db/schema.ts'
import type { AppDeps } from '../../deps.ts'
import { memberRole } from '../organizations/roles.ts'
import { updateUser } from '../users/service.ts'

type Deps = Pick<AppDeps, 'database' | 'config'>

export function isOperator(deps: Pick<Deps, 'config'>, email: string): boolean {
  return deps.config.operatorEmails.includes(email.toLowerCase())
}

/**
 * Permissions come from the membership in the selected organization (none when it is DISABLED), plus the
 * operator's own.
 */
export async function profileOf(deps: Deps, user: UserRow): Promise<Profile> {
  const operator = isOperator(deps, user.email)
  const role = user.selectedOrganizationId
    ? await memberRole(deps.database.db, user.id, user.selectedOrganizationId)
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
