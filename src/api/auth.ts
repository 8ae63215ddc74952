import { OidcCoverageSchema, type Profile, ProfileSchema, type SessionRequest } from '../../contract/auth.ts'
import type { Locale } from '../../contract/locale.ts'
import { API_BASE_URL, ApiError, api } from '../lib/api.ts'

// The sign-in calls alone, without the query cache: the prerendered sign-in page loads only these. They call
// api() with their paths (those of authEndpoints and profileEndpoints.one), not call(): call() with those two
// tables would add 0.4 KiB to that page, past its 110 KiB budget.

/** The signed-in user's profile; a 401 when no session is alive. */
export const getProfile = () => api('/profile', { schema: ProfileSchema })

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
  await api('/email-tokens', { method: 'POST', body: { email, locale } })
}

export function createSession(request: SessionRequest): Promise<Profile> {
  return api('/sessions', { method: 'POST', body: request, schema: ProfileSchema })
}

/** Ends the session on the server; a network failure still signs this device out. */
export async function deleteSession(): Promise<void> {
  await api('/session', { method: 'DELETE' }).catch((error: unknown) => {
    if (!(error instanceof ApiError && (error.isNetworkError || error.status === 401))) throw error
  })
}

/** The organization whose own sign-in covers the address's domain, or null (then the e-mail code it is). */
export async function organizationSignIn(email: string): Promise<{ organizationName: string } | null> {
  try {
    return await api(`/auth/oidc/coverage?email=${encodeURIComponent(email)}`, { schema: OidcCoverageSchema })
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null
    throw error
  }
}

/** Where the browser goes to sign in with its organization (the server sends it on to the provider). */
export const organizationSignInHref = (email: string, locale: Locale) =>
  `${API_BASE_URL}/auth/oidc/start?email=${encodeURIComponent(email)}&locale=${locale}`
