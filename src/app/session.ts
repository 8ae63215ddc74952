import type { QueryClient } from '@tanstack/react-query'
import type { Profile } from '../../contract/auth.ts'
import { fetchProfile } from '../api/auth.ts'
import { currentProfile, profileKey } from '../api/profile.ts'
import { ApiError } from '../lib/api.ts'
import { markSignedIn } from '../lib/signed-in-mark.ts'
import { clearClientData } from './query.ts'
import { applyTheme } from './theme.ts'

/**
 * Makes `profile` the signed-in account. When the account changes (another user, or signed out), every cached
 * answer of the previous one is forgotten first, and on sign-out (or a session the server ended) the device's
 * mirror too: no data of one account is ever shown to another.
 */
export function setSignedInProfile(queryClient: QueryClient, profile: Profile | null): void {
  const previous = queryClient.getQueryData<Profile | null>(profileKey)
  if (previous !== undefined && previous?.id !== profile?.id) {
    clearClientData(queryClient)
    // The device's mirror is the account's too (its unsent actions stay, to go when it signs in again).
    // The next account, or the public pages, follow the system until an account says otherwise.
    if (profile === null && typeof document !== 'undefined' && typeof matchMedia === 'function')
      applyTheme(null)
    if (profile === null)
      void import('../offline/field-mode.ts')
        .then((mode) => mode.forgetAccount())
        .catch((error: unknown) => console.warn('Forgetting the mirror failed', error))
  }
  queryClient.setQueryData(profileKey, profile)
  // The static landing page reads it to send a signed-in visitor into the app.
  markSignedIn(profile !== null)
}

/**
 * Restores the session at start-up from `GET /profile` (`answer`: that request, when boot started it before the
 * cache was restored). Only the server's "no session" (401) signs out; any other failure (offline, a 5xx while
 * the server restarts) is logged and the profile this device last saw stays, so field work goes on.
 */
export async function restoreSession(
  queryClient: QueryClient,
  answer: Promise<Profile | null> = fetchProfile(),
): Promise<void> {
  try {
    setSignedInProfile(queryClient, await answer)
  } catch (error) {
    console.warn(
      'Session restore failed',
      error instanceof ApiError ? `${error.status} ${error.code}` : error,
    )
    if (currentProfile(queryClient) === null) queryClient.setQueryData(profileKey, null)
  }
}

export function isUnauthenticated(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401
}
