import { ProfileSchema, ProfileUpdateSchema } from '../../../contract/auth.ts'
import type { AppDeps } from '../../deps.ts'
import type { ApiRouter } from '../../http/api-router.ts'
import { profileOf, updateProfile } from './service.ts'

export function profileRoutes(api: ApiRouter, deps: AppDeps): void {
  api.route(
    {
      method: 'get',
      path: '/profile',
      summary: "The signed-in user's profile and permissions in the selected organization",
      access: 'signedIn',
      responses: { 200: { description: 'The profile', schema: ProfileSchema } },
    },
    async (c, { session }) => c.json(await profileOf(deps, session.user, session.selectedRole), 200),
  )

  api.route(
    {
      method: 'patch',
      path: '/profile',
      summary: 'Update own name, phone number or locale',
      access: 'signedIn',
      body: ProfileUpdateSchema,
      responses: { 200: { description: 'The updated profile', schema: ProfileSchema } },
    },
    async (c, { session, body }) => c.json(await updateProfile(deps, session.user, body), 200),
  )
}
