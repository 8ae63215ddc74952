import type { QueryClient } from '@tanstack/react-query'
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

export const profileQuery = { queryKey: profileKey, queryFn: fetchProfile, staleTime: 60_000 }

/**
 * Restores the session at start-up from `GET /profile`. A failure is logged and the app carries on:
 * signed out, or — when only the network failed — with the profile this device last saw, so field
 * work goes on offline.
 */
export async function restoreSession(queryClient: QueryClient): Promise<void> {
  try {
    queryClient.setQueryData(profileKey, await fetchProfile())
  } catch (error) {
    console.warn('Session restore failed', error)
    const offlineProfile =
      error instanceof ApiError && error.isNetworkError && queryClient.getQueryData(profileKey)
    if (!offlineProfile) queryClient.setQueryData(profileKey, null)
  }
}

export function currentProfile(queryClient: QueryClient): Profile | null {
  return queryClient.getQueryData<Profile | null>(profileKey) ?? null
}

export async function requestSignInMail(email: string, locale: Locale): Promise<void> {
  await api('/email-tokens', { method: 'POST', body: { email, locale } })
}

export async function createSession(request: SessionRequest, queryClient: QueryClient): Promise<Profile> {
  const profile = await api('/sessions', { method: 'POST', body: request, schema: ProfileSchema })
  queryClient.setQueryData(profileKey, profile)
  return profile
}

/** Ends the session on the server; a network failure still signs this device out. */
export async function deleteSession(): Promise<void> {
  await api('/session', { method: 'DELETE' }).catch((error: unknown) => {
    if (!(error instanceof ApiError && (error.isNetworkError || error.status === 401))) throw error
  })
}

export const TokenSearchSchema = v.object({ token: v.optional(v.string()) })
