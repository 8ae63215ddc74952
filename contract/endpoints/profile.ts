import { ProfileSchema, ProfileUpdateSchema } from '../auth.ts'
import { endpoint } from './endpoint.ts'

/** The signed-in user's own profile. */
export const profileEndpoints = {
  one: endpoint({ method: 'get', path: '/profile', response: ProfileSchema }),
  update: endpoint({ method: 'patch', path: '/profile', body: ProfileUpdateSchema, response: ProfileSchema }),
}
