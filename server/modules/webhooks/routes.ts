import { webhookEndpoints } from '../../../contract/endpoints/webhooks.ts'
import { WEBHOOK_ENDPOINTS_MAX, WEBHOOK_TESTS_PER_MINUTE } from '../../../contract/webhooks.ts'
import type { AppDeps } from '../../deps.ts'
import { inSelectedOrganization } from '../../http/access.ts'
import type { ApiRouter } from '../../http/api-router.ts'
import {
  createWebhook,
  deleteWebhook,
  listDeliveries,
  listWebhooks,
  rotateWebhookSecret,
  sendTestWebhook,
  updateWebhook,
} from './service.ts'

const access = inSelectedOrganization('manage__webhook')

/** `/webhooks`: the selected organization's outgoing webhooks (ADMIN), their secrets, log and test sends. */
export function webhookRoutes(api: ApiRouter, deps: AppDeps): void {
  api.route(
    {
      ...webhookEndpoints.list,
      summary: 'The selected organization’s webhooks (their secrets are never answered again)',
      access,
      responses: { 200: { description: 'The webhooks, oldest first' } },
    },
    async (c, { organization }) =>
      c.json({ data: await listWebhooks(deps, organization.organizationId) }, 200),
  )

  api.route(
    {
      ...webhookEndpoints.create,
      summary:
        'Subscribe an https URL to events; answers the signing secret once (http only to loopback where the server allows private targets)',
      access,
      responses: {
        201: { description: 'The webhook and its secret' },
        409: {
          description: `The organization has its ${WEBHOOK_ENDPOINTS_MAX} webhooks already (\`webhook_limit_reached\`)`,
        },
      },
    },
    async (c, { session, organization, body }) =>
      c.json(
        await createWebhook(
          deps,
          { organizationId: organization.organizationId, actorId: session.user.id },
          body,
        ),
        201,
      ),
  )

  api.route(
    {
      ...webhookEndpoints.update,
      summary: 'Change a webhook’s URL, events, description, or enable/disable it',
      access,
      responses: { 200: { description: 'The webhook' } },
    },
    async (c, { organization, params, body }) =>
      c.json(await updateWebhook(deps, organization.organizationId, params.id, body), 200),
  )

  api.route(
    {
      ...webhookEndpoints.remove,
      summary: 'Delete a webhook with its delivery log; pending deliveries are dropped',
      access,
      responses: { 204: { description: 'Deleted' } },
    },
    async (c, { organization, params }) => {
      await deleteWebhook(deps, organization.organizationId, params.id)
      return c.body(null, 204)
    },
  )

  api.route(
    {
      ...webhookEndpoints.rotateSecret,
      summary: 'A new signing secret, answered once; the old one stops signing at once',
      access,
      responses: { 201: { description: 'The webhook and its new secret' } },
    },
    async (c, { organization, params }) =>
      c.json(await rotateWebhookSecret(deps, organization.organizationId, params.id), 201),
  )

  api.route(
    {
      ...webhookEndpoints.deliveries,
      summary:
        'The webhook’s last deliveries, newest first, with each attempt (status, duration, error, next try)',
      access,
      responses: { 200: { description: 'The delivery log' } },
    },
    async (c, { organization, params }) =>
      c.json({ data: await listDeliveries(deps, organization.organizationId, params.id) }, 200),
  )

  api.route(
    {
      ...webhookEndpoints.sendTest,
      summary: 'Queue a signed `webhook.test` event to this webhook now (even disabled), tried once',
      access,
      responses: {
        202: { description: 'The queued delivery' },
        429: {
          description: `The organization’s ${WEBHOOK_TESTS_PER_MINUTE} test sends of this minute are spent (\`rate_limited\`, with Retry-After)`,
        },
      },
    },
    async (c, { session, organization, params }) =>
      c.json(
        await sendTestWebhook(
          deps,
          { organizationId: organization.organizationId, actorId: session.user.id },
          params.id,
        ),
        202,
      ),
  )
}
