import type { Profile, ProfileUpdate } from '../../../contract/auth.ts'
import { type Credential, permissionsFor, type Role } from '../../../contract/permissions.ts'
import type { UserRow } from '../../db/schema.ts'
import type { AppDeps } from '../../deps.ts'
import { memberRole } from '../../http/member-role.ts'
import { updateUser } from '../users/service.ts'

type Deps = Pick<AppDeps, 'database' | 'config'>

export function isOperator(deps: Pick<Deps, 'config'>, email: string): boolean {
  return deps.config.operatorEmails.includes(email.toLowerCase())
}

/** The user's role in their selected organization (null: none selected, or the membership is DISABLED). */
export async function selectedRoleOf(deps: Deps, user: UserRow): Promise<Role | null> {
  return user.selectedOrganizationId
    ? memberRole(deps.database.db, user.id, user.selectedOrganizationId)
    : null
}

/**
 * Permissions come from the membership in the selected organization (none when it is DISABLED), plus the
 * operator's own, less what no API token may do when the caller came with one. `role`: that membership's role
 * when the caller has it already (the session read it).
 */
export async function profileOf(
  deps: Deps,
  user: UserRow,
  role?: Role | null,
  credential: Credential = 'session',
): Promise<Profile> {
  const operator = isOperator(deps, user.email)
  role = role === undefined ? await selectedRoleOf(deps, user) : role
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    phoneNumber: user.phoneNumber,
    locale: user.locale,
    reminderMails: user.reminderMails,
    theme: user.theme,
    isOperator: operator,
    selectedOrganizationId: user.selectedOrganizationId,
    permissions: [...permissionsFor(role, operator, credential)],
  }
}

export async function updateProfile(
  deps: Deps,
  user: UserRow,
  update: ProfileUpdate,
  credential: Credential = 'session',
): Promise<Profile> {
  return profileOf(deps, await updateUser(deps, user.id, update), undefined, credential)
}
