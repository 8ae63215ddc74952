import { noticeEndpoints } from '../../../contract/endpoints/notices.ts'
import { PushSubscriptionSchema } from '../../../contract/notices.ts'
import type { AppDeps } from '../../deps.ts'
import type { ApiRouter } from '../../http/api-router.ts'
import { badgeCount } from './badge.ts'
import { settingsOf, updateSettings } from './settings.ts'
import { listSubscriptions, subscribe, unsubscribe } from './subscriptions.ts'
import { vapidKeys } from './vapid.ts'

/** A person's notices reach that person's devices: a session manages them, never an API token. */
const tokenRefused = '`forbidden`: called with an API token (notifications are set from a session)'

/** `/notice-settings` and `/push-subscriptions`: how the caller is told about things, and where. */
export function noticeRoutes(api: ApiRouter, deps: AppDeps): void {
  const { db } = deps.database

  api.route(
    {
      ...noticeEndpoints.settings,
      summary: 'How the caller is told about each kind of notice: push, e-mail, both or none',
      access: 'signedIn',
      credentials: 'session',
      responses: { 200: { description: 'The channel of each kind' }, 403: { description: tokenRefused } },
    },
    async (c, { session }) => c.json(await settingsOf(db, session.user.id), 200),
  )

  api.route(
    {
      ...noticeEndpoints.updateSettings,
      summary: 'Choose the channel of some kinds of notice (the others keep theirs)',
      access: 'signedIn',
      credentials: 'session',
      responses: {
        200: { description: 'The channel of each kind, as it is now' },
        400: { description: '`validation_failed`: an unknown kind or channel' },
        403: { description: tokenRefused },
      },
    },
    async (c, { session, body }) => c.json(await updateSettings(db, session.user.id, body), 200),
  )

  api.route(
    {
      ...noticeEndpoints.subscriptions,
      summary: "The caller's devices that receive push notifications, and the server's VAPID public key",
      access: 'signedIn',
      credentials: 'session',
      responses: { 200: { description: 'The devices' }, 403: { description: tokenRefused } },
    },
    async (c, { session }) => {
      const [keys, data] = await Promise.all([vapidKeys(deps.config), listSubscriptions(db, session.user.id)])
      return c.json({ publicKey: keys.publicKey, data }, 200)
    },
  )

  api.route(
    {
      ...noticeEndpoints.subscribe,
      summary:
        "Receive push notifications on this device (its browser's subscription); again on every app start to keep it fresh",
      access: 'signedIn',
      credentials: 'session',
      responses: {
        200: { description: 'Known: refreshed', schema: PushSubscriptionSchema },
        201: { description: 'Subscribed', schema: PushSubscriptionSchema },
        400: { description: '`validation_failed`: a malformed endpoint or key, no name' },
        403: { description: tokenRefused },
      },
    },
    async (c, { session, body }) => {
      const { subscription, created } = await subscribe(deps, session.user.id, body)
      return c.json(subscription, created ? 201 : 200)
    },
  )

  api.route(
    {
      ...noticeEndpoints.unsubscribe,
      summary: 'Stop push notifications to one of the caller’s devices',
      access: 'signedIn',
      credentials: 'session',
      responses: {
        204: { description: 'Removed' },
        403: { description: tokenRefused },
        404: { description: 'No such device of the caller' },
      },
    },
    async (c, { session, params }) => {
      await unsubscribe(db, session.user.id, params.id)
      return c.body(null, 204)
    },
  )

  api.route(
    {
      ...noticeEndpoints.badge,
      summary:
        'How many things wait for the caller, for the app icon: keychains held past their return, extension requests to answer',
      access: 'signedIn',
      credentials: 'session',
      responses: { 200: { description: 'The count' }, 403: { description: tokenRefused } },
    },
    async (c, { session }) => c.json({ count: await badgeCount(db, session.user.id, deps.clock.now()) }, 200),
  )
}
