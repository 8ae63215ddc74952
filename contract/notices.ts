import * as v from 'valibot'
import { requiredText } from './common.ts'

/**
 * What a person is told about, each by push, e-mail, both or neither as they choose (`GET/PUT /notice-settings`).
 * `reminder`: a pickup window opening, a return due, overdue, for what I hold or am to pick up; `lent_overdue`: a
 * keychain I lent out not back (managers); `found_report`: someone found a tag (staff); `handover`: a keychain
 * handed to me from phone to phone, or a handover of mine refused; `member_left`: someone disabled while holding
 * keychains or with transfers open (admins).
 */
export const PERSONAL_NOTICE_KINDS = [
  'transfer_authorized',
  'reminder',
  'extension_answered',
  'lent_overdue',
  'found_report',
  'stocktake_due',
  'handover',
  'member_left',
] as const
export type PersonalNoticeKind = (typeof PERSONAL_NOTICE_KINDS)[number]

export const NOTICE_CHANNELS = ['BOTH', 'PUSH', 'EMAIL', 'NONE'] as const
export type NoticeChannel = (typeof NOTICE_CHANNELS)[number]

/** Until a person chooses: what came by e-mail before push existed keeps coming, and push too; handovers by push. */
export const DEFAULT_CHANNELS: Record<PersonalNoticeKind, NoticeChannel> = {
  transfer_authorized: 'BOTH',
  reminder: 'BOTH',
  extension_answered: 'BOTH',
  lent_overdue: 'BOTH',
  found_report: 'BOTH',
  stocktake_due: 'BOTH',
  handover: 'PUSH',
  member_left: 'BOTH',
}

export const sendsPush = (channel: NoticeChannel) => channel === 'BOTH' || channel === 'PUSH'
export const sendsMail = (channel: NoticeChannel) => channel === 'BOTH' || channel === 'EMAIL'

export const NoticeSettingsSchema = v.object({
  /** E-mail notices together once a day (08:00 in the organization's time zone) instead of one mail each. */
  digest: v.boolean(),
  channels: v.object(
    Object.fromEntries(PERSONAL_NOTICE_KINDS.map((kind) => [kind, v.picklist(NOTICE_CHANNELS)])) as Record<
      PersonalNoticeKind,
      v.PicklistSchema<typeof NOTICE_CHANNELS, undefined>
    >,
  ),
})
export type NoticeSettings = v.InferOutput<typeof NoticeSettingsSchema>

/** `PUT /notice-settings`: the kinds to change, each to one channel; kinds left out keep theirs; the digest on or off. */
export const NoticeSettingsUpdateSchema = v.strictObject({
  digest: v.optional(v.boolean('digest is true or false.')),
  channels: v.optional(
    v.strictObject(
      Object.fromEntries(
        PERSONAL_NOTICE_KINDS.map((kind) => [
          kind,
          v.optional(v.picklist(NOTICE_CHANNELS, `${kind} must be one of ${NOTICE_CHANNELS.join(', ')}.`)),
        ]),
      ) as Record<
        PersonalNoticeKind,
        v.OptionalSchema<v.PicklistSchema<typeof NOTICE_CHANNELS, string>, undefined>
      >,
      'Unknown kind of notice.',
    ),
  ),
})
export type NoticeSettingsUpdate = v.InferInput<typeof NoticeSettingsUpdateSchema>

/** Base64url without padding, `length` characters. */
const base64url = (name: string, length: number) =>
  v.pipe(
    v.string(`${name} is required.`),
    v.regex(new RegExp(`^[A-Za-z0-9_-]{${length}}$`), `${name} must be ${length} base64url characters.`),
  )

/**
 * `PUT /push-subscriptions`: what `PushManager.subscribe()` gave this device (`toJSON()`), and the device's name
 * for the profile. Registered again on every app start: the same endpoint updates its row.
 */
export const PushSubscriptionInputSchema = v.strictObject({
  endpoint: v.pipe(
    v.string('endpoint is required.'),
    v.maxLength(2048, 'endpoint is too long.'),
    v.url('endpoint must be a URL.'),
    v.regex(/^https?:\/\//, 'endpoint must be an https:// address.'),
  ),
  keys: v.strictObject({
    /** The device's P-256 public key, raw (65 bytes). */
    p256dh: base64url('keys.p256dh', 87),
    /** The 16-byte authentication secret. */
    auth: base64url('keys.auth', 22),
  }),
  name: requiredText(80, 'Device name is required.', 'Device name is too long.'),
})
export type PushSubscriptionInput = v.InferInput<typeof PushSubscriptionInputSchema>

/** One of my devices that receives push, as the profile lists it (the endpoint is a credential: not shown). */
export const PushSubscriptionSchema = v.object({
  id: v.string(),
  name: v.string(),
  /** The push service, by host name (fcm.googleapis.com, web.push.apple.com, …). */
  service: v.string(),
  createdAt: v.string(),
  seenAt: v.string(),
})
export type PushSubscription = v.InferOutput<typeof PushSubscriptionSchema>
export const PushSubscriptionListSchema = v.object({
  /** The server's VAPID public key (`applicationServerKey` of `subscribe()`), base64url. */
  publicKey: v.string(),
  data: v.array(PushSubscriptionSchema),
})

/** What the service worker receives in a push message (JSON, at most a few kilobytes). */
export const PushMessageSchema = v.object({
  title: v.string(),
  body: v.string(),
  /** The screen a tap opens, in the reader's language (`/en/app/…` or `/app/…`). */
  url: v.pipe(v.string(), v.startsWith('/')),
  /** Notices of one subject replace each other on the lock screen. */
  tag: v.string(),
  /** How many things wait for the reader, for the app icon's badge; absent: unchanged. */
  badge: v.optional(v.number()),
})
export type PushMessage = v.InferOutput<typeof PushMessageSchema>

/** `GET /badge`: how many things wait for me (keychains I hold past their return, requests to answer). */
export const BadgeSchema = v.object({ count: v.pipe(v.number(), v.integer(), v.minValue(0)) })
