import * as v from 'valibot'

// What a keychain's list row says of where it lives. Apart from contract/places.ts (the places screens' own
// schemas): the keychain list's schemas load on every page, the places' only with their screens.

/**
 * Where a keychain is, as its page and list say it: held by someone (a custodian, or out on a transfer), on its
 * home hook, misplaced (last seen on another hook), or nowhere known (no home, nobody, never seen on a hook).
 */
export const KEYCHAIN_WHEREABOUTS = ['HELD', 'AT_HOME', 'MISPLACED', 'UNKNOWN'] as const
export type KeychainWhereabouts = (typeof KEYCHAIN_WHEREABOUTS)[number]

export const HookRefSchema = v.object({
  id: v.string(),
  code: v.string(),
  placeId: v.string(),
  placeName: v.string(),
})
export type HookRef = v.InferOutput<typeof HookRefSchema>
