import { apiTokenEndpoints } from '../../../contract/endpoints/api-tokens.ts'
import type { AppDeps } from '../../deps.ts'
import { inPathOrganization } from '../../http/access.ts'
import type { ApiRouter } from '../../http/api-router.ts'
import { createApiToken, listOrganizationTokens, listPersonalTokens, revokeApiToken } from './service.ts'

/** Managing API tokens takes a signed-in session: a token never makes or revokes tokens. */
const tokenRefused = '`forbidden`: called with an API token (tokens are managed from a session)'

/** Personal tokens (act as their user) and organization tokens (an admin's, act in that organization). */
export function apiTokenRoutes(api: ApiRouter, deps: AppDeps): void {
  const creatorOf = (user: { id: string; firstName: string; lastName: string; email: string }) => ({
    id: user.id,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
  })

  api.route(
    {
      ...apiTokenEndpoints.listPersonal,
      summary: "The caller's personal API tokens not revoked (expired ones included), newest first",
      access: 'signedIn',
      credentials: 'session',
      responses: {
        200: { description: 'The tokens (never their secret part)' },
        403: { description: tokenRefused },
      },
    },
    async (c, { session }) => c.json({ data: await listPersonalTokens(deps, session.user.id) }, 200),
  )

  api.route(
    {
      ...apiTokenEndpoints.createPersonal,
      summary:
        'A personal API token: it acts as the caller, with their role in each organization; the answer holds the token, once',
      access: 'signedIn',
      credentials: 'session',
      responses: {
        201: { description: 'The token (`token`) and its description' },
        400: { description: '`validation_failed`: no name, or an expiry that is not in the future' },
        403: { description: tokenRefused },
      },
    },
    async (c, { session, body }) =>
      c.json(
        await createApiToken(deps, {
          kind: 'personal',
          creator: creatorOf(session.user),
          name: body.name,
          expiresAt: body.expiresAt,
        }),
        201,
      ),
  )

  api.route(
    {
      ...apiTokenEndpoints.revokePersonal,
      summary: 'Revoke one of my personal API tokens: it answers 401 from the next request on',
      access: 'signedIn',
      credentials: 'session',
      responses: { 204: { description: 'Revoked' }, 403: { description: tokenRefused } },
    },
    async (c, { session, params }) => {
      await revokeApiToken(deps, params.id, { kind: 'personal', userId: session.user.id })
      return c.body(null, 204)
    },
  )

  api.route(
    {
      ...apiTokenEndpoints.listOrganization,
      summary: "The organization's API tokens not revoked (expired ones included), newest first",
      access: inPathOrganization('update__organization'),
      credentials: 'session',
      responses: { 200: { description: 'The tokens (never their secret part)' } },
    },
    async (c, { organization }) =>
      c.json({ data: await listOrganizationTokens(deps, organization.organizationId) }, 200),
  )

  api.route(
    {
      ...apiTokenEndpoints.createOrganization,
      summary:
        "An organization API token with the role it acts with there (ADMIN at most, never managing members, webhooks or tokens), or with `kind: scim` the identity provider's token for `/scim/v2` (`role`: the role of the people it adds); it is revoked for good once its creator is no longer an admin of the organization; the answer holds the token, once",
      access: inPathOrganization('update__organization'),
      credentials: 'session',
      responses: {
        201: { description: 'The token (`token`) and its description' },
        400: { description: '`validation_failed`: no name, an unknown role, or an expiry not in the future' },
      },
    },
    async (c, { session, organization, body }) =>
      c.json(
        await createApiToken(deps, {
          kind: body.kind,
          organizationId: organization.organizationId,
          role: body.role,
          creator: creatorOf(session.user),
          name: body.name,
          expiresAt: body.expiresAt,
        }),
        201,
      ),
  )

  api.route(
    {
      ...apiTokenEndpoints.revokeOrganization,
      summary: "Revoke one of the organization's API tokens: it answers 401 from the next request on",
      access: inPathOrganization('update__organization'),
      credentials: 'session',
      responses: { 204: { description: 'Revoked' } },
    },
    async (c, { organization, params }) => {
      await revokeApiToken(deps, params.tokenId, {
        kind: 'organization',
        organizationId: organization.organizationId,
      })
      return c.body(null, 204)
    },
  )
}
