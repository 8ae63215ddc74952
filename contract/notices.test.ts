import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import {
  BadgeSchema,
  DEFAULT_CHANNELS,
  NOTICE_CHANNELS,
  NoticeSettingsSchema,
  NoticeSettingsUpdateSchema,
  PERSONAL_NOTICE_KINDS,
  PushMessageSchema,
  PushSubscriptionInputSchema,
  PushSubscriptionListSchema,
  sendsMail,
  sendsPush,
} from './notices.ts'

const KEYS = { p256dh: `B${'A'.repeat(86)}`, auth: 'A'.repeat(22) }
const messagesOf = (schema: v.GenericSchema, input: unknown) => {
  const result = v.safeParse(schema, input)
  return result.success ? [] : result.issues.map((issue) => issue.message)
}

describe('notice channels', () => {
  it('say which channels each choice uses', () => {
    expect(NOTICE_CHANNELS.filter(sendsPush)).toEqual(['BOTH', 'PUSH'])
    expect(NOTICE_CHANNELS.filter(sendsMail)).toEqual(['BOTH', 'EMAIL'])
  })

  it('default to both for what came by mail before push, and push for handovers', () => {
    expect(DEFAULT_CHANNELS).toEqual({
      transfer_authorized: 'BOTH',
      reminder: 'BOTH',
      extension_answered: 'BOTH',
      lent_overdue: 'BOTH',
      found_report: 'BOTH',
      stocktake_due: 'BOTH',
      handover: 'PUSH',
      member_left: 'BOTH',
    })
    expect(Object.keys(DEFAULT_CHANNELS)).toEqual([...PERSONAL_NOTICE_KINDS])
  })
})

describe('notice settings', () => {
  it('read every kind with a channel, and the digest', () => {
    expect(v.is(NoticeSettingsSchema, { digest: false, channels: DEFAULT_CHANNELS })).toBe(true)
    expect(
      v.is(NoticeSettingsSchema, { digest: false, channels: { ...DEFAULT_CHANNELS, reminder: 'SMS' } }),
    ).toBe(false)
    const { handover: _, ...missing } = DEFAULT_CHANNELS
    expect(v.is(NoticeSettingsSchema, { digest: true, channels: missing })).toBe(false)
    expect(v.is(NoticeSettingsSchema, { channels: DEFAULT_CHANNELS })).toBe(false)
  })

  it('take some kinds, the digest, or nothing, and refuse the rest with a reason', () => {
    expect(v.parse(NoticeSettingsUpdateSchema, { channels: { reminder: 'NONE' } })).toEqual({
      channels: { reminder: 'NONE' },
    })
    expect(v.parse(NoticeSettingsUpdateSchema, { digest: true })).toEqual({ digest: true })
    expect(v.parse(NoticeSettingsUpdateSchema, {})).toEqual({})
    expect(messagesOf(NoticeSettingsUpdateSchema, { channels: { reminder: 'SMS' } })).toEqual([
      'reminder must be one of BOTH, PUSH, EMAIL, NONE.',
    ])
    expect(messagesOf(NoticeSettingsUpdateSchema, { channels: { gossip: 'PUSH' } })).toEqual([
      'Unknown kind of notice.',
    ])
    expect(messagesOf(NoticeSettingsUpdateSchema, { digest: 'yes' })).toEqual(['digest is true or false.'])
    expect(v.is(NoticeSettingsUpdateSchema, { theme: 'dark' })).toBe(false)
  })
})

describe('push subscriptions', () => {
  const valid = { endpoint: 'https://fcm.googleapis.com/fcm/send/abc', keys: KEYS, name: '  Pixel  ' }

  it('take what PushManager.subscribe() gives, with a trimmed device name', () => {
    expect(v.parse(PushSubscriptionInputSchema, valid)).toEqual({ ...valid, name: 'Pixel' })
    // Plain http for a push service on this machine (the server refuses it when it is served over https).
    expect(v.is(PushSubscriptionInputSchema, { ...valid, endpoint: 'http://127.0.0.1:9/push/1' })).toBe(true)
  })

  it('list as the profile shows them: name, service and dates, never the endpoint', () => {
    const device = { id: 'd1', name: 'Pixel', service: 'fcm.googleapis.com', createdAt: 'a', seenAt: 'b' }
    expect(v.is(PushSubscriptionListSchema, { publicKey: 'K', data: [device] })).toBe(true)
    for (const field of Object.keys(device)) {
      const { [field]: _left, ...without } = device as Record<string, string>
      expect(v.is(PushSubscriptionListSchema, { publicKey: 'K', data: [without] }), field).toBe(false)
    }
    expect(v.is(PushSubscriptionListSchema, { data: [device] })).toBe(false)
  })

  it('refuse each malformed part with its reason', () => {
    const cases: Array<[unknown, string[]]> = [
      [{ ...valid, endpoint: undefined }, ['endpoint is required.']],
      [
        { ...valid, endpoint: 'fcm.googleapis.com/x' },
        ['endpoint must be a URL.', 'endpoint must be an https:// address.'],
      ],
      [{ ...valid, endpoint: 'ftp://push.example/x' }, ['endpoint must be an https:// address.']],
      [{ ...valid, endpoint: 'ftp://push.example/https://x' }, ['endpoint must be an https:// address.']],
      [{ ...valid, keys: { ...KEYS, p256dh: 5 } }, ['keys.p256dh is required.']],
      [{ ...valid, endpoint: `https://push.example/${'x'.repeat(2048)}` }, ['endpoint is too long.']],
      [{ ...valid, keys: { ...KEYS, p256dh: 'short' } }, ['keys.p256dh must be 87 base64url characters.']],
      [
        { ...valid, keys: { ...KEYS, p256dh: `${'A'.repeat(86)}=` } },
        ['keys.p256dh must be 87 base64url characters.'],
      ],
      [
        { ...valid, keys: { ...KEYS, auth: `${KEYS.auth}A` } },
        ['keys.auth must be 22 base64url characters.'],
      ],
      [{ ...valid, keys: { p256dh: KEYS.p256dh } }, ['Invalid key: Expected "auth" but received undefined']],
      [{ ...valid, name: ' ' }, ['Device name is required.']],
      [{ ...valid, name: 'x'.repeat(81) }, ['Device name is too long.']],
    ]
    for (const [input, messages] of cases)
      expect(messagesOf(PushSubscriptionInputSchema, input)).toEqual(messages)
    expect(v.is(PushSubscriptionInputSchema, { ...valid, expirationTime: null })).toBe(false)
    expect(v.is(PushSubscriptionInputSchema, { ...valid, name: 'x'.repeat(80) })).toBe(true)
  })
})

describe('push messages and the badge', () => {
  it('open a path of the app, never an address elsewhere', () => {
    const message = { title: 'T', body: 'B', url: '/app/transfers', tag: 't' }
    expect(v.is(PushMessageSchema, message)).toBe(true)
    expect(v.is(PushMessageSchema, { ...message, badge: 2 })).toBe(true)
    expect(v.is(PushMessageSchema, { ...message, url: 'https://evil.test/app' })).toBe(false)
  })

  it('count whole things from zero', () => {
    expect(v.is(BadgeSchema, { count: 0 })).toBe(true)
    expect(v.is(BadgeSchema, { count: -1 })).toBe(false)
    expect(v.is(BadgeSchema, { count: 1.5 })).toBe(false)
  })
})
