import { type Action, hasPermission, type Subject } from '../../contract/permissions.ts'

export type Ability = { can(action: Action, subject: Subject): boolean; readonly size: number }

/** Builds the ability from the profile's permissions; before sign-in or on failure nothing is allowed. */
export function createAbility(permissions: readonly string[] | null | undefined): Ability {
  const granted = new Set((permissions ?? []).map((entry) => entry.toLowerCase()))
  return {
    can: (action, subject) => hasPermission(granted, action, subject),
    size: granted.size,
  }
}
