import type { QueryClient } from '@tanstack/react-query'
import { useQuery } from '@tanstack/react-query'
import * as v from 'valibot'
import { type Profile, ProfileSchema, type SessionRequest } from '../../../contract/auth.ts'
import type { Locale } from '../../../contract/locale.ts'
import { ApiError, api } from '../../lib/api.ts'

export const profileKey = ['profile'] as const

export async function fetchProfile(): Promise<Profile | null> {
  try {
    return await api('/profile', { schema: ProfileSchema })
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null
    throw error
  }
}

/** The live profile query: a 401 here is an error (the session ended while in use), seen by the query cache. */
export const profileQuery = {
  queryKey: profileKey,
  queryFn: () => api('/profile', { schema: ProfileSchema }),
  staleTime: 60_000,
}

export function currentProfile(queryClient: QueryClient): Profile | null {
  return queryClient.getQueryData<Profile | null>(profileKey) ?? null
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

export const TokenSearchSchema = v.object({ token: v.optional(v.string()) })

/** The live profile inside the signed-in area (the /app layout guarantees one; null only while signing out). */
export function useProfile(): Profile | null {
  return useQuery(profileQuery).data ?? null
}
