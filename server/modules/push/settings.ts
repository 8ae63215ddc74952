import { and, eq, inArray, sql } from 'drizzle-orm'
import {
  DEFAULT_CHANNELS,
  type NoticeChannel,
  type NoticeSettings,
  type NoticeSettingsUpdate,
  PERSONAL_NOTICE_KINDS,
  type PersonalNoticeKind,
} from '../../../contract/notices.ts'
import type { Db } from '../../db/client.ts'
import { noticeSettings, users } from '../../db/schema.ts'

/**
 * The channel of each kind for a person: their choice, else the default. Reminder mails turned off in the profile
 * (`users.reminder_mails`) stay off: push only, or nothing.
 */
export async function settingsOf(db: Db, userId: string): Promise<NoticeSettings> {
  const [channels, [person]] = await Promise.all([
    channelsOf(db, [userId], PERSONAL_NOTICE_KINDS),
    db.select({ digest: users.noticeDigest }).from(users).where(eq(users.id, userId)),
  ])
  return {
    // Stryker disable next-line BooleanLiteral,OptionalChaining: for someone unknown the channels below throw anyway
    digest: person?.digest ?? false,
    channels: Object.fromEntries(channels.get(userId)!) as NoticeSettings['channels'],
  }
}

/** Each person's channel for each of `kinds`, in one statement per table. */
export async function channelsOf(
  db: Db,
  userIds: readonly string[],
  kinds: readonly PersonalNoticeKind[],
): Promise<Map<string, Map<PersonalNoticeKind, NoticeChannel>>> {
  const result = new Map<string, Map<PersonalNoticeKind, NoticeChannel>>()
  if (userIds.length === 0) return result
  const [chosen, people] = await Promise.all([
    db
      .select()
      .from(noticeSettings)
      .where(and(inArray(noticeSettings.userId, [...userIds]), inArray(noticeSettings.kind, [...kinds]))),
    db
      .select({ id: users.id, reminderMails: users.reminderMails })
      .from(users)
      .where(inArray(users.id, [...userIds])),
  ])
  const mailsOff = new Set(people.filter((person) => !person.reminderMails).map((person) => person.id))
  for (const person of people) {
    result.set(person.id, new Map(kinds.map((kind) => [kind, DEFAULT_CHANNELS[kind]])))
  }
  // Stryker disable next-line OptionalChaining: a choice is stored only for a person who exists (foreign key)
  for (const row of chosen) result.get(row.userId)?.set(row.kind, row.channel)
  // Reminder mails turned off (the profile's switch) stay off whatever the channel says.
  for (const id of mailsOff) {
    const channels = result.get(id)!
    const reminder = channels.get('reminder')
    if (reminder === 'BOTH') channels.set('reminder', 'PUSH')
    if (reminder === 'EMAIL') channels.set('reminder', 'NONE')
  }
  return result
}

/** `PUT /notice-settings`: each kind named takes its channel; the others keep theirs. */
export async function updateSettings(
  db: Db,
  userId: string,
  update: NoticeSettingsUpdate,
): Promise<NoticeSettings> {
  if (update.digest !== undefined) {
    await db.update(users).set({ noticeDigest: update.digest }).where(eq(users.id, userId))
  }
  const rows = Object.entries(update.channels ?? {})
    .filter((entry): entry is [PersonalNoticeKind, NoticeChannel] => entry[1] !== undefined)
    .map(([kind, channel]) => ({ userId, kind, channel }))
  if (rows.length > 0) {
    await db
      .insert(noticeSettings)
      .values(rows)
      .onConflictDoUpdate({
        target: [noticeSettings.userId, noticeSettings.kind],
        set: { channel: sql`excluded.channel` },
      })
  }
  return settingsOf(db, userId)
}
