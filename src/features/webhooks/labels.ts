import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import type { WebhookDeliveryStatus, WebhookEventType } from '../../../contract/webhooks.ts'
import type { BadgeTone } from '../../ui/Badge.tsx'

export const WEBHOOK_EVENT_LABELS: Record<WebhookEventType | 'webhook.test', MessageDescriptor> = {
  'transfer.authorized': msg`Transfer authorized`,
  'transfer.picked_up': msg`Keychain picked up`,
  'transfer.returned': msg`Keychain returned`,
  'transfer.overdue': msg`Transfer overdue`,
  'found_report.received': msg`Found-key report`,
  'order.status_changed': msg`Order status changed`,
  'stocktake.closed': msg`Stocktake closed`,
  'keychain.handed_over': msg`Keychain handed over`,
  'webhook.test': msg`Test`,
}

export const DELIVERY_STATUS_LABELS: Record<WebhookDeliveryStatus, MessageDescriptor> = {
  pending: msg`Pending`,
  succeeded: msg`Accepted by the receiver`,
  failed: msg`Given up`,
}

export const DELIVERY_STATUS_TONES: Record<WebhookDeliveryStatus, BadgeTone> = {
  pending: 'warning',
  succeeded: 'success',
  failed: 'danger',
}

/** Why an attempt failed, as the server logs it (server/modules/webhooks/send.ts; a refused private address is a failed connection). */
export const ATTEMPT_ERROR_LABELS: Record<string, MessageDescriptor> = {
  http_status: msg`Error answer`,
  redirect: msg`Redirect (not followed)`,
  timeout: msg`No answer in time`,
  connection_failed: msg`Connection failed`,
  secret_unreadable: msg`Secret unreadable: rotate it`,
  endpoint_disabled: msg`Webhook disabled`,
}
