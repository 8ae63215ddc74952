import type { Profile, SessionRequest } from '../../contract/auth.ts'
import { authEndpoints } from '../../contract/endpoints/auth.ts'
import { profileEndpoints } from '../../contract/endpoints/profile.ts'
import type { Locale } from '../../contract/locale.ts'
import { ApiError } from '../lib/api.ts'
import { call } from '../lib/call.ts'

// The sign-in calls alone, without the query cache: the prerendered sign-in page loads only these.

/** The signed-in user's profile; a 401 when no session is alive. */
export const getProfile = () => call(profileEndpoints.one)

/** The profile, or null when nobody is signed in. */
export async function fetchProfile(): Promise<Profile | null> {
  try {
    return await getProfile()
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null
    throw error
  }
}

export async function requestSignInMail(email: string, locale: Locale): Promise<void> {
  await call(authEndpoints.requestSignIn, { body: { email, locale } })
}

export function createSession(request: SessionRequest): Promise<Profile> {
  return call(authEndpoints.signIn, { body: request })
}

/** Ends the session on the server; a network failure still signs this device out. */
export async function deleteSession(): Promise<void> {
  await call(authEndpoints.signOut).catch((error: unknown) => {
    if (!(error instanceof ApiError && (error.isNetworkError || error.status === 401))) throw error
  })
}
