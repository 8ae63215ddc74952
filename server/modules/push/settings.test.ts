// Each person's channel for each kind of notice (issue 42): their choice, else the default, and reminder mails
// turned off in the profile kept off. The rules are called directly, on people inserted directly.
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import {
  DEFAULT_CHANNELS,
  type NoticeChannel,
  PERSONAL_NOTICE_KINDS,
  type PersonalNoticeKind,
} from '../../../contract/notices.ts'
import { setupTestAppAtEpoch, uniqueEmail } from '../../../tests/server/harness.ts'
import { statementsOf } from '../../../tests/server/statement-count.ts'
import { noticeSettings, users } from '../../db/schema.ts'
import { channelsOf, settingsOf, updateSettings } from './settings.ts'

const t = setupTestAppAtEpoch()

/** A person inserted directly, reminder mails on and no digest unless told. */
async function person(values: { reminderMails?: boolean; noticeDigest?: boolean } = {}) {
  const [row] = await t.db
    .insert(users)
    .values({ email: uniqueEmail(), createdAt: t.clock.now(), lastSeenAt: t.clock.now(), ...values })
    .returning({ id: users.id })
  return row!.id
}

/** Stores a person's choices directly. */
async function choose(userId: string, channels: Partial<Record<PersonalNoticeKind, NoticeChannel>>) {
  await t.db.insert(noticeSettings).values(
    (Object.entries(channels) as [PersonalNoticeKind, NoticeChannel][]).map(([kind, channel]) => ({
      userId,
      kind,
      channel,
    })),
  )
}

const channelMap = (entries: [PersonalNoticeKind, NoticeChannel][]) => new Map(entries)

describe('channelsOf', () => {
  it('answers an empty map without asking the database when asked about nobody', async () => {
    const { result, statements } = await statementsOf(() => channelsOf(t.db, [], PERSONAL_NOTICE_KINDS))
    expect(result).toEqual(new Map())
    expect(statements).toEqual([])
  })

  it('gives each person asked their choice or the default, for the kinds asked only, in two statements', async () => {
    const chooser = await person()
    const undecided = await person()
    const other = await person()
    await choose(chooser, { reminder: 'NONE', transfer_authorized: 'EMAIL', handover: 'BOTH' })
    await choose(other, { reminder: 'PUSH', found_report: 'NONE' })
    const kinds = ['reminder', 'transfer_authorized', 'found_report'] as const
    const { result, statements } = await statementsOf(() => channelsOf(t.db, [chooser, undecided], kinds))
    expect(result).toEqual(
      new Map([
        [
          chooser,
          channelMap([
            ['reminder', 'NONE'],
            ['transfer_authorized', 'EMAIL'],
            ['found_report', 'BOTH'],
          ]),
        ],
        [
          undecided,
          channelMap([
            ['reminder', 'BOTH'],
            ['transfer_authorized', 'BOTH'],
            ['found_report', 'BOTH'],
          ]),
        ],
      ]),
    )
    expect(statements).toHaveLength(2)
  })

  it('leaves out a person who does not exist, and answers the defaults of every kind', async () => {
    const someone = await person()
    const result = await channelsOf(t.db, [crypto.randomUUID(), someone], PERSONAL_NOTICE_KINDS)
    expect([...result.keys()]).toEqual([someone])
    expect(Object.fromEntries(result.get(someone)!)).toEqual(DEFAULT_CHANNELS)
    expect(DEFAULT_CHANNELS.handover).toBe('PUSH')
  })

  it('keeps reminder mails off for a person whose profile turned them off: both is push, e-mail is none', async () => {
    const cases: [NoticeChannel | undefined, NoticeChannel][] = [
      [undefined, 'PUSH'],
      ['BOTH', 'PUSH'],
      ['EMAIL', 'NONE'],
      ['PUSH', 'PUSH'],
      ['NONE', 'NONE'],
    ]
    for (const [chosen, expected] of cases) {
      const quiet = await person({ reminderMails: false })
      const loud = await person()
      if (chosen) {
        await choose(quiet, { reminder: chosen, transfer_authorized: 'EMAIL' })
        await choose(loud, { reminder: chosen })
      }
      const result = await channelsOf(
        t.db,
        [quiet, loud],
        ['reminder', 'transfer_authorized', 'lent_overdue'],
      )
      expect(Object.fromEntries(result.get(quiet)!), `chosen ${chosen}`).toEqual({
        reminder: expected,
        transfer_authorized: chosen ? 'EMAIL' : 'BOTH',
        lent_overdue: 'BOTH',
      })
      expect(result.get(loud)!.get('reminder'), `chosen ${chosen}`).toBe(chosen ?? 'BOTH')
    }
  })

  it('adds no reminder channel for a person with reminder mails off when reminders are not asked about', async () => {
    const quiet = await person({ reminderMails: false })
    const other = await person({ reminderMails: false })
    await choose(other, { reminder: 'EMAIL' })
    const result = await channelsOf(t.db, [quiet, other], ['lent_overdue', 'handover'])
    expect(result).toEqual(
      new Map([
        [
          quiet,
          channelMap([
            ['lent_overdue', 'BOTH'],
            ['handover', 'PUSH'],
          ]),
        ],
        [
          other,
          channelMap([
            ['lent_overdue', 'BOTH'],
            ['handover', 'PUSH'],
          ]),
        ],
      ]),
    )
  })
})

describe('settingsOf', () => {
  it('answers the digest flag and the channel of every kind, reminder mails kept off', async () => {
    const userId = await person({ noticeDigest: true, reminderMails: false })
    await choose(userId, { reminder: 'EMAIL', stocktake_due: 'PUSH' })
    expect(await settingsOf(t.db, userId)).toEqual({
      digest: true,
      channels: { ...DEFAULT_CHANNELS, reminder: 'NONE', stocktake_due: 'PUSH' },
    })
    expect(await settingsOf(t.db, await person())).toEqual({ digest: false, channels: DEFAULT_CHANNELS })
  })
})

describe('updateSettings', () => {
  it('changes only the kinds named, again and again, and never another person’s', async () => {
    const userId = await person()
    const neighbour = await person()
    await choose(neighbour, { reminder: 'NONE' })
    expect(
      await updateSettings(t.db, userId, { channels: { reminder: 'PUSH', found_report: 'NONE' } }),
    ).toEqual({
      digest: false,
      channels: { ...DEFAULT_CHANNELS, reminder: 'PUSH', found_report: 'NONE' },
    })
    expect(
      await updateSettings(t.db, userId, { channels: { reminder: 'EMAIL', handover: undefined } }),
    ).toEqual({
      digest: false,
      channels: { ...DEFAULT_CHANNELS, reminder: 'EMAIL', found_report: 'NONE' },
    })
    expect(await settingsOf(t.db, neighbour)).toEqual({
      digest: false,
      channels: { ...DEFAULT_CHANNELS, reminder: 'NONE' },
    })
  })

  it('turns the digest on and off without touching the channels, and leaves it when not named', async () => {
    const userId = await person()
    await choose(userId, { lent_overdue: 'EMAIL' })
    const channels = { ...DEFAULT_CHANNELS, lent_overdue: 'EMAIL' }
    expect(await updateSettings(t.db, userId, { digest: true })).toEqual({ digest: true, channels })
    expect(await updateSettings(t.db, userId, { channels: {} })).toEqual({ digest: true, channels })
    expect(await updateSettings(t.db, userId, { channels: { handover: 'NONE' } })).toEqual({
      digest: true,
      channels: { ...channels, handover: 'NONE' },
    })
    expect(await updateSettings(t.db, userId, { digest: false, channels: { lent_overdue: 'BOTH' } })).toEqual(
      {
        digest: false,
        channels: { ...channels, handover: 'NONE', lent_overdue: 'BOTH' },
      },
    )
    const [row] = await t.db.select().from(users).where(eq(users.id, userId))
    expect(row!.noticeDigest).toBe(false)
  })

  it('changes nothing when nothing is named', async () => {
    const userId = await person({ noticeDigest: true })
    const { result, statements } = await statementsOf(() => updateSettings(t.db, userId, {}))
    expect(result).toEqual({ digest: true, channels: DEFAULT_CHANNELS })
    // Reading the settings back only: the digest (one) and the channels (two).
    expect(statements).toHaveLength(3)
  })
})
