import { createContext, type ReactNode, useContext, useMemo } from 'react'
import { type Ability, createAbility } from './permissions.ts'

const AbilityContext = createContext<Ability>(createAbility([]))

/** Provides `can(action, subject)` built from the signed-in profile's permissions. */
export function AbilityProvider({
  permissions,
  children,
}: {
  permissions: readonly string[]
  children: ReactNode
}) {
  const ability = useMemo(() => createAbility(permissions), [permissions])
  return <AbilityContext.Provider value={ability}>{children}</AbilityContext.Provider>
}

/** The caller's ability; outside a signed-in area nothing is allowed. */
export function useAbility(): Ability {
  return useContext(AbilityContext)
}
