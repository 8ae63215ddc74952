import { type Profile, ProfileSchema, type ProfileUpdate } from '../../../contract/auth.ts'
import { api } from '../../lib/api.ts'

export function updateProfile(update: ProfileUpdate): Promise<Profile> {
  return api('/profile', { method: 'PATCH', body: update, schema: ProfileSchema })
}
