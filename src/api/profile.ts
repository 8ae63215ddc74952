import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { Profile, ProfileUpdate } from '../../contract/auth.ts'
import { profileEndpoints } from '../../contract/endpoints/profile.ts'
import { call } from '../lib/call.ts'
import { getProfile } from './auth.ts'

export const profileKey = ['profile'] as const

/** The live profile query: a 401 here is an error (the session ended while in use), seen by the query cache. */
export const profileQuery = {
  queryKey: profileKey,
  queryFn: getProfile,
  staleTime: 60_000,
}

export function currentProfile(queryClient: QueryClient): Profile | null {
  return queryClient.getQueryData<Profile | null>(profileKey) ?? null
}

/** The live profile inside the signed-in area (the /app layout guarantees one; null only while signing out). */
export function useProfile(): Profile | null {
  return useQuery(profileQuery).data ?? null
}

/** Saves the user's own details (names, phone, language); the cached profile becomes the server's answer. */
export function useUpdateProfile() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (update: ProfileUpdate) => call(profileEndpoints.update, { body: update }),
    onSuccess: (updated) => queryClient.setQueryData(profileKey, updated),
  })
}
