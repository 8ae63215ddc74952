import { ErrorCode } from '../../contract/errors.ts'
import {
  type Credential,
  type Permission,
  permissionsFor,
  type Role,
  WITHHELD_FROM_TOKENS,
} from '../../contract/permissions.ts'
import type { Db } from '../db/client.ts'
import type { CurrentSession } from './env.ts'
import { ApiError, forbidden, notFound, unauthenticated } from './errors.ts'
import { memberRole } from './member-role.ts'

/**
 * Who may call a route. Every route declares one; the router enforces it before the handler runs, and the
 * OpenAPI document and the authorization matrix test read it from the registry.
 *
 * - `'public'`: anyone, signed in or not.
 * - `'signedIn'`: any signed-in user (401 otherwise); the handler scopes what it reads to the caller.
 * - `{ permission, organization: 'selected' }`: the permission in the caller's selected organization
 *   (400 `no_organization_selected` without one, 403 `forbidden` without the permission). The handler
 *   looks resources up inside that organization only, so another organization's id answers 404.
 * - `{ permission, organization: 'path' }`: the permission in the organization named by the `:id` path
 *   parameter (404 when the caller is not a member of it, 403 when the role lacks the permission).
 * - `'operator'`: platform operators only (`OPERATOR_EMAILS`); 403 for anyone else signed in.
 * - `orOperator(...)`: an organization declaration that platform operators pass whatever their memberships;
 *   their handler gets the organization scope when they also hold the permission there, else null, and
 *   must then look resources up across organizations.
 *
 * API tokens: a personal token passes as its user's session would. An organization token passes organization
 * declarations only, in its own organization (another one named in the path answers 404), with the role it
 * was given; `'signedIn'` and `'operator'` routes answer it 403 (they are a person's). No token, of either kind,
 * passes a declaration of a permission in `WITHHELD_FROM_TOKENS` (403, after the 404 of another organization),
 * whatever its role: checked here, so a new route that manages members or webhooks cannot forget it.
 */
export type Access = 'public' | 'signedIn' | 'operator' | OrganizationAccess
export type OrganizationAccess = {
  permission: Permission
  organization: 'selected' | 'path'
  /** Platform operators pass too. */
  operators?: true
}

export const inSelectedOrganization = (permission: Permission): OrganizationAccess => ({
  permission,
  organization: 'selected',
})
export const inPathOrganization = (permission: Permission): OrganizationAccess => ({
  permission,
  organization: 'path',
})
export const orOperator = (access: OrganizationAccess): OrganizationAccess & { operators: true } => ({
  ...access,
  operators: true,
})

/** The organization a permission-checked route works in, with the caller's role there. */
export type OrganizationScope = {
  organizationId: string
  role: Role
  permissions: readonly Permission[]
}

const noOrganizationSelected = () =>
  new ApiError(400, ErrorCode.noOrganizationSelected, 'No organization selected')

const organizationTokenRefused = () =>
  new ApiError(403, ErrorCode.forbidden, "An organization API token calls its organization's routes only.")

/** A permission no token holds (`WITHHELD_FROM_TOKENS`), asked by a caller with one whose role has it. */
const withheldFromTokens = () =>
  new ApiError(
    403,
    ErrorCode.forbidden,
    'An API token may not manage members, webhooks, API tokens or the organization itself: a signed-in person does it.',
  )

/** How the caller authenticated: what the permission lists subtract for tokens. */
export const credentialOf = (session: Pick<CurrentSession, 'token'>): Credential =>
  session.token ? 'token' : 'session'

const isWithheldFrom = (session: CurrentSession, permission: Permission) =>
  session.token !== undefined && WITHHELD_FROM_TOKENS.includes(permission)

/** A route that takes a session cookie only (managing API tokens): 403 to any API token. */
export const apiTokenRefused = () =>
  new ApiError(403, ErrorCode.forbidden, 'This route takes a signed-in session, not an API token.')

/** A route a session alone may call: declared so, or of a permission no token holds (a token gets 403). */
export const takesSessionOnly = (access: Access, credentials?: 'session') =>
  credentials === 'session' ||
  (typeof access === 'object' && WITHHELD_FROM_TOKENS.includes(access.permission))

export function requiresSession(access: Access): boolean {
  return access !== 'public'
}

/**
 * Throws the 401/400/403/404 the declaration calls for, or answers the organization scope (null for an
 * operator who passed an `orOperator` declaration without the permission in that organization).
 */
export async function resolveAccess(
  db: Db,
  access: Access,
  session: CurrentSession | null,
  params: unknown,
  operator: boolean,
): Promise<OrganizationScope | null> {
  if (access === 'public') return null
  if (!session) throw unauthenticated()
  // An organization token acts in its organization only: a person's own routes are not its to call.
  if (session.token?.kind === 'organization' && (access === 'signedIn' || access === 'operator')) {
    throw organizationTokenRefused()
  }
  if (access === 'signedIn') return null
  if (access === 'operator') {
    if (!operator) throw forbidden()
    return null
  }
  // A token does not pass as an operator what no token may do: the organization's own answer (403/404) stands.
  if (access.operators && operator && !isWithheldFrom(session, access.permission)) {
    try {
      return await organizationScope(db, access, session, params)
    } catch (error) {
      if (error instanceof ApiError) return null
      throw error
    }
  }
  return organizationScope(db, access, session, params)
}

async function organizationScope(
  db: Db,
  access: OrganizationAccess,
  session: CurrentSession,
  params: unknown,
): Promise<OrganizationScope> {
  const organizationId =
    access.organization === 'selected'
      ? session.user.selectedOrganizationId
      : ((params as { id?: string } | undefined)?.id ?? null)
  if (!organizationId) {
    if (access.organization === 'selected') throw noOrganizationSelected()
    throw new Error('a route with organization: "path" needs an :id path parameter')
  }
  if (session.token?.kind === 'organization' && organizationId !== session.token.organizationId) {
    throw notFound('No such organization.')
  }
  // The selected organization's role came with the session (same request: nothing changed it since).
  const role =
    organizationId === session.user.selectedOrganizationId
      ? session.selectedRole
      : await memberRole(db, session.user.id, organizationId)
  if (!role) throw access.organization === 'path' ? notFound('No such organization.') : forbidden()
  if (isWithheldFrom(session, access.permission)) throw withheldFromTokens()
  const permissions = permissionsFor(role, false, credentialOf(session))
  if (!permissions.includes(access.permission)) throw forbidden()
  return { organizationId, role, permissions }
}

/** How the OpenAPI document and the API docs page describe a declaration, API tokens included. */
export function describeAccess(access: Access, credentials?: 'session'): string {
  return `${describeCaller(access)} ${describeTokens(access, credentials)}`
}

function describeCaller(access: Access): string {
  if (access === 'public') return 'Open to anyone.'
  if (access === 'signedIn') return 'Requires a signed-in user.'
  if (access === 'operator') return 'Platform operators only (OPERATOR_EMAILS).'
  const scoped =
    access.organization === 'selected'
      ? `Requires \`${access.permission}\` in the selected organization`
      : `Requires \`${access.permission}\` in the organization {id}`
  return access.operators ? `${scoped}, or a platform operator.` : `${scoped}.`
}

function describeTokens(access: Access, credentials?: 'session'): string {
  if (access === 'public') return 'No credential needed.'
  if (credentials === 'session') return 'A session only: API tokens are refused (403).'
  if (access === 'signedIn' || access === 'operator')
    return 'A session or a personal API token; organization tokens are refused (403).'
  if (WITHHELD_FROM_TOKENS.includes(access.permission))
    return `A session only: \`${access.permission}\` is never an API token's (403).`
  return 'A session, a personal API token (as its user), or an organization token of that organization (with its role).'
}
