import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { webhookEndpoints } from '../../contract/endpoints/webhooks.ts'
import type { WebhookCreate, WebhookUpdate } from '../../contract/webhooks.ts'
import { call } from '../lib/call.ts'

const webhookKeys = {
  all: (organizationId: string) => ['webhooks', organizationId] as const,
  list: (organizationId: string) => ['webhooks', organizationId, 'list'] as const,
  deliveries: (organizationId: string, id: string) => ['webhooks', organizationId, 'deliveries', id] as const,
}

/** The selected organization's webhooks (ADMIN). */
export const webhooksQuery = (organizationId: string) =>
  queryOptions({
    queryKey: webhookKeys.list(organizationId),
    queryFn: () => call(webhookEndpoints.list),
  })

/** One webhook's last deliveries with their attempts; read again every few seconds while pending ones wait. */
export const webhookDeliveriesQuery = (organizationId: string, id: string) =>
  queryOptions({
    queryKey: webhookKeys.deliveries(organizationId, id),
    queryFn: () => call(webhookEndpoints.deliveries, { params: { id } }),
    refetchInterval: (query) =>
      query.state.data?.data.some((delivery) => delivery.status === 'pending') ? 5000 : false,
  })

/** A change to the organization's webhooks: everything about them is read again. */
function useWebhookChange<Input, Output>(organizationId: string, send: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: send,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.all(organizationId) }),
  })
}

export const useCreateWebhook = (organizationId: string) =>
  useWebhookChange(organizationId, (body: WebhookCreate) => call(webhookEndpoints.create, { body }))

export const useUpdateWebhook = (organizationId: string) =>
  useWebhookChange(organizationId, ({ id, ...body }: WebhookUpdate & { id: string }) =>
    call(webhookEndpoints.update, { params: { id }, body }),
  )

export const useDeleteWebhook = (organizationId: string) =>
  useWebhookChange(organizationId, (id: string) => call(webhookEndpoints.remove, { params: { id } }))

export const useRotateWebhookSecret = (organizationId: string) =>
  useWebhookChange(organizationId, (id: string) => call(webhookEndpoints.rotateSecret, { params: { id } }))

export const useSendTestWebhook = (organizationId: string) =>
  useWebhookChange(organizationId, (id: string) => call(webhookEndpoints.sendTest, { params: { id } }))
