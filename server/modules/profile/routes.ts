import { profileEndpoints } from '../../../contract/endpoints/profile.ts'
import type { AppDeps } from '../../deps.ts'
import { credentialOf } from '../../http/access.ts'
import type { ApiRouter } from '../../http/api-router.ts'
import { profileOf, updateProfile } from './service.ts'

export function profileRoutes(api: ApiRouter, deps: AppDeps): void {
  api.route(
    {
      ...profileEndpoints.one,
      summary: "The signed-in user's profile and permissions in the selected organization",
      access: 'signedIn',
      responses: { 200: { description: 'The profile' } },
    },
    async (c, { session }) =>
      c.json(await profileOf(deps, session.user, session.selectedRole, credentialOf(session)), 200),
  )

  api.route(
    {
      ...profileEndpoints.update,
      summary: 'Update own name, phone number or locale',
      access: 'signedIn',
      responses: { 200: { description: 'The updated profile' } },
    },
    async (c, { session, body }) =>
      c.json(await updateProfile(deps, session.user, body, credentialOf(session)), 200),
  )
}
