import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { noticeEndpoints } from '../../contract/endpoints/notices.ts'
import type { NoticeSettingsUpdate } from '../../contract/notices.ts'
import { call } from '../lib/call.ts'
import { type PushSupport, pushSupport } from '../lib/push-support.ts'
import { isMarkedSignedIn } from '../lib/signed-in-mark.ts'

const noticeKeys = {
  settings: ['notice-settings'] as const,
  subscriptions: ['push-subscriptions'] as const,
}

/** How I am told about each kind of notice. */
export const noticeSettingsQuery = () =>
  queryOptions({ queryKey: noticeKeys.settings, queryFn: () => call(noticeEndpoints.settings) })

/** My devices that receive push, and the server's key to subscribe one more. */
export const pushSubscriptionsQuery = () =>
  queryOptions({ queryKey: noticeKeys.subscriptions, queryFn: () => call(noticeEndpoints.subscriptions) })

export function useUpdateNoticeSettings() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (update: NoticeSettingsUpdate) => call(noticeEndpoints.updateSettings, { body: update }),
    onSuccess: (settings) => queryClient.setQueryData(noticeKeys.settings, settings),
  })
}

export function useRemovePushSubscription() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => call(noticeEndpoints.unsubscribe, { params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: noticeKeys.subscriptions }),
  })
}

/** Whether this browser holds a push subscription now (the profile's "on for this device"). */
export const thisDeviceSubscribedQuery = (support: PushSupport) =>
  queryOptions({
    queryKey: ['push-this-device', support],
    queryFn: async () => {
      if (support !== 'supported') return false
      const registration = await navigator.serviceWorker.getRegistration()
      return (await registration?.pushManager.getSubscription()) != null
    },
  })

/** A short name for this device in the profile's list: its platform and browser as the browser says them. */
function deviceName(): string {
  const agent = navigator.userAgent
  const platform =
    /Android/.exec(agent)?.[0] ?? /iPhone|iPad|Macintosh|Windows|Linux|CrOS/.exec(agent)?.[0] ?? 'Device'
  const browser = /Edg|Firefox|Chrome|Safari/.exec(agent)?.[0] ?? ''
  return `${platform} ${browser === 'Edg' ? 'Edge' : browser}`.trim().slice(0, 80)
}

async function register(subscription: globalThis.PushSubscription) {
  const { endpoint, keys } = subscription.toJSON() as {
    endpoint: string
    keys: { p256dh: string; auth: string }
  }
  return call(noticeEndpoints.subscribe, { body: { endpoint, keys, name: deviceName() } })
}

/**
 * Turns push on for this device, after a tap: the browser asks the person, then subscribes with the server's
 * key, and the server records it. Answers the permission the person gave.
 */
export function useEnablePush() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (publicKey: string): Promise<NotificationPermission> => {
      const permission = await Notification.requestPermission()
      if (permission !== 'granted') return permission
      const registration = await navigator.serviceWorker.ready
      const subscription =
        (await registration.pushManager.getSubscription()) ??
        (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: publicKey }))
      await register(subscription)
      return permission
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: noticeKeys.subscriptions }),
  })
}

/** On every app start: this device's subscription, if it has one, is registered again (kept fresh, or re-made). */
export async function refreshPushSubscription(): Promise<void> {
  if (pushSupport() !== 'supported' || Notification.permission !== 'granted' || !isMarkedSignedIn()) return
  const registration = await navigator.serviceWorker.ready
  const subscription = await registration.pushManager.getSubscription()
  if (subscription) await register(subscription)
}

/**
 * The app icon's badge: how many things wait for me (keychains I hold past their return, requests to answer).
 * Set on start, when the app comes back to the foreground and after the outbox sent something; browsers without
 * the Badging API do nothing.
 */
export async function refreshBadge(): Promise<void> {
  if (!('setAppBadge' in navigator) || !isMarkedSignedIn()) return
  const { count } = await call(noticeEndpoints.badge)
  await (count > 0 ? navigator.setAppBadge(count) : navigator.clearAppBadge())
}
