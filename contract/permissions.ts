import * as v from 'valibot'

export const ROLES = ['ADMIN', 'MANAGER', 'MEMBER', 'CONTACT'] as const
export type Role = (typeof ROLES)[number]
export const RoleSchema = v.picklist(ROLES)

export const ACTIONS = ['read', 'create', 'update', 'delete', 'manage', 'scan', 'pickup', 'export'] as const
export type Action = (typeof ACTIONS)[number]

export const SUBJECTS = [
  'organization',
  'member',
  'keychain',
  'key',
  'tag',
  'transfer',
  'order',
  'cart',
  'plan',
  'subscription',
  'scan',
  'activity',
  'found_report',
  'webhook',
  'place',
  'stocktake',
  'handover',
] as const
export type Subject = (typeof SUBJECTS)[number]

/** A permission is `action__subject`, compared in lowercase. */
export type Permission = `${Action}__${Subject}`

export function permission(action: Action, subject: Subject): Permission {
  return `${action}__${subject}`
}

const crud = (subject: Subject): Permission[] =>
  (['read', 'create', 'update', 'delete'] as const).map((action) => permission(action, subject))

const MEMBER_PERMISSIONS: Permission[] = [
  'read__organization',
  'read__keychain',
  'read__key',
  'read__tag',
  'read__transfer',
  'create__scan',
  'pickup__transfer',
  'read__plan',
  // Where keychains live, and stocktakes: reading them, and scanning into an open one (the organization may
  // keep scanning to managers: its stocktake role).
  'read__place',
  'read__stocktake',
  'scan__stocktake',
  // Handing a keychain from phone to phone: sending the signed pair, reading the handovers one took part in.
  'create__handover',
  'read__handover',
]

const MANAGER_PERMISSIONS: Permission[] = [
  ...MEMBER_PERMISSIONS,
  'read__member',
  ...crud('keychain'),
  ...crud('key'),
  'update__tag',
  'create__transfer',
  'delete__transfer',
  'read__order',
  'create__order',
  'read__cart',
  'update__cart',
  // Managers authorize transfers, so they see the plan and this month's allowance.
  'read__subscription',
  // The organization's ledger: who did what with its keys, and its chain's verification.
  'read__activity',
  // Found-key reports: read them, move their status, reply to the finder through the server.
  'read__found_report',
  'update__found_report',
  ...crud('place'),
  'create__stocktake',
  'update__stocktake',
]

/**
 * The role × permission matrix. It lives here once: the server enforces it on every route,
 * the profile returns the caller's list for the selected organization, the UI hides or shows from it.
 */
export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  ADMIN: [
    ...MANAGER_PERMISSIONS,
    'update__organization',
    'delete__organization',
    'create__member',
    'update__member',
    'delete__member',
    'manage__subscription',
    // Outgoing webhooks: their URLs and signing secrets are the organization's integration settings.
    'manage__webhook',
  ],
  MANAGER: MANAGER_PERMISSIONS,
  MEMBER: MEMBER_PERMISSIONS,
  // A contact may be handed a keychain within their transfer's window when the organization allows it.
  CONTACT: ['read__transfer', 'create__scan', 'pickup__transfer', 'create__handover', 'read__handover'],
}

/** What platform operators may do on top of their memberships: move every order through production. */
export const OPERATOR_PERMISSIONS: readonly Permission[] = ['manage__order', 'export__tag']

/**
 * What no API token may do, personal or organization, whatever its role: each of these makes a person, a
 * credential or a flow of the organization's data that outlives the token, so a signed-in person does it.
 * - `create__member`, `update__member`, `delete__member`: inviting, changing a role (making an ADMIN included),
 *   disabling or removing a member;
 * - `update__organization`, `delete__organization`: the organization itself, whose settings include its API
 *   tokens (the token routes also take a session only);
 * - `manage__webhook`: outgoing webhooks, their destinations and signing secrets (reading them included: they
 *   are one permission).
 * The access layer refuses them to any token on every route (403 `forbidden`), and a token's profile omits
 * them. A person's own routes that make a credential (calendar feeds, tokens) take a session only instead.
 */
export const WITHHELD_FROM_TOKENS: readonly Permission[] = [
  'create__member',
  'update__member',
  'delete__member',
  'update__organization',
  'delete__organization',
  'manage__webhook',
]

/** How the caller authenticated: a signed-in session, or an API token (which never holds `WITHHELD_FROM_TOKENS`). */
export type Credential = 'session' | 'token'

const computePermissions = (role: Role | null, isOperator: boolean, credential: Credential) => {
  const own = role ? ROLE_PERMISSIONS[role] : []
  const all = new Set([...own, ...(isOperator ? OPERATOR_PERMISSIONS : [])])
  if (credential === 'token') for (const withheld of WITHHELD_FROM_TOKENS) all.delete(withheld)
  return Object.freeze([...all].sort())
}

/** Every (role, operator, credential) triple's list, computed once: the server asks on every request. */
const PERMISSION_LISTS = new Map(
  [...ROLES, null].flatMap((role) =>
    [false, true].flatMap((isOperator) =>
      (['session', 'token'] as const).map(
        (credential) =>
          [`${role}|${isOperator}|${credential}`, computePermissions(role, isOperator, credential)] as const,
      ),
    ),
  ),
)

/**
 * The permissions of a role (null: none), plus the operator's own, less what tokens may not do when the
 * caller came with one; sorted, the same frozen array each time.
 */
export function permissionsFor(
  role: Role | null,
  isOperator = false,
  credential: Credential = 'session',
): readonly Permission[] {
  return PERMISSION_LISTS.get(`${role}|${isOperator}|${credential}`)!
}

export function hasPermission(granted: Iterable<string>, action: Action, subject: Subject): boolean {
  const wanted = permission(action, subject)
  for (const entry of granted) if (entry.toLowerCase() === wanted) return true
  return false
}
