import {
  WebhookCreateSchema,
  WebhookDeliveryListSchema,
  WebhookDeliverySchema,
  WebhookEndpointListSchema,
  WebhookEndpointSchema,
  WebhookParamsSchema,
  WebhookUpdateSchema,
  WebhookWithSecretSchema,
} from '../webhooks.ts'
import { endpoint } from './endpoint.ts'

/** The selected organization's outgoing webhooks: endpoints, their secret, their delivery log, a test send. */
export const webhookEndpoints = {
  list: endpoint({ method: 'get', path: '/webhooks', response: WebhookEndpointListSchema }),
  create: endpoint({
    method: 'post',
    path: '/webhooks',
    body: WebhookCreateSchema,
    response: WebhookWithSecretSchema,
  }),
  update: endpoint({
    method: 'patch',
    path: '/webhooks/:id',
    params: WebhookParamsSchema,
    body: WebhookUpdateSchema,
    response: WebhookEndpointSchema,
  }),
  remove: endpoint({ method: 'delete', path: '/webhooks/:id', params: WebhookParamsSchema }),
  rotateSecret: endpoint({
    method: 'post',
    path: '/webhooks/:id/secret-rotations',
    params: WebhookParamsSchema,
    response: WebhookWithSecretSchema,
  }),
  deliveries: endpoint({
    method: 'get',
    path: '/webhooks/:id/deliveries',
    params: WebhookParamsSchema,
    response: WebhookDeliveryListSchema,
  }),
  sendTest: endpoint({
    method: 'post',
    path: '/webhooks/:id/tests',
    params: WebhookParamsSchema,
    response: WebhookDeliverySchema,
  }),
}
