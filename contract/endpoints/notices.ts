import { IdParamsSchema } from '../common.ts'
import {
  BadgeSchema,
  NoticeSettingsSchema,
  NoticeSettingsUpdateSchema,
  PushSubscriptionInputSchema,
  PushSubscriptionListSchema,
  PushSubscriptionSchema,
} from '../notices.ts'
import { endpoint } from './endpoint.ts'

/** How the signed-in person is told about things: per kind of notice, and the devices that receive push. */
export const noticeEndpoints = {
  settings: endpoint({ method: 'get', path: '/notice-settings', response: NoticeSettingsSchema }),
  updateSettings: endpoint({
    method: 'put',
    path: '/notice-settings',
    body: NoticeSettingsUpdateSchema,
    response: NoticeSettingsSchema,
  }),
  subscriptions: endpoint({
    method: 'get',
    path: '/push-subscriptions',
    response: PushSubscriptionListSchema,
  }),
  /** Subscribing again with the same endpoint answers that subscription, refreshed. */
  subscribe: endpoint({
    method: 'put',
    path: '/push-subscriptions',
    body: PushSubscriptionInputSchema,
    response: PushSubscriptionSchema,
  }),
  unsubscribe: endpoint({ method: 'delete', path: '/push-subscriptions/:id', params: IdParamsSchema }),
  badge: endpoint({ method: 'get', path: '/badge', response: BadgeSchema }),
}
