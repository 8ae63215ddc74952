import type { QueryClient } from '@tanstack/react-query'
import { useQuery } from '@tanstack/react-query'
import * as v from 'valibot'
import { type Profile, ProfileSchema } from '../../../contract/auth.ts'
import { api } from '../../lib/api.ts'

export const profileKey = ['profile'] as const

/** The live profile query: a 401 here is an error (the session ended while in use), seen by the query cache. */
export const profileQuery = {
  queryKey: profileKey,
  queryFn: () => api('/profile', { schema: ProfileSchema }),
  staleTime: 60_000,
}

export function currentProfile(queryClient: QueryClient): Profile | null {
  return queryClient.getQueryData<Profile | null>(profileKey) ?? null
}

export const TokenSearchSchema = v.object({ token: v.optional(v.string()) })

/** The live profile inside the signed-in area (the /app layout guarantees one; null only while signing out). */
export function useProfile(): Profile | null {
  return useQuery(profileQuery).data ?? null
}
