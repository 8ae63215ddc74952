import { and, asc, eq, inArray, isNull } from 'drizzle-orm'
import * as v from 'valibot'
import { shiftCalendarDay } from '../../../contract/transfers.ts'
import type { Db } from '../../db/client.ts'
import { noticeDigestItems, users } from '../../db/schema.ts'
import type { AppDeps } from '../../deps.ts'
import { type MessageDescriptor, translator } from '../../i18n/translator.ts'
import { mailJob } from '../../jobs/mail.ts'
import { enqueueJobs, type NewJob } from '../../jobs/queue.ts'
import type { JobHandler, JobHandlers } from '../../jobs/runner.ts'
import { renderMail } from '../../mail/layout.ts'
import type { MailMessage } from '../../mail/mailer.ts'
import { signInMessages } from '../../mail/messages.ts'
import { findOrganization } from '../../shared/organization.ts'
import { atHourIn, calendarDayIn } from '../../shared/time-zones.ts'

const DIGEST_JOB = 'notice.digest'
/** The digest leaves at 08:00 in the organization's time zone, the day after a notice came in (or that day). */
const DIGEST_HOUR = 8
/** Notices in one digest mail at most; the rest go in the next day's. */
const DIGEST_ITEMS_MAX = 50
const DAY_MS = 24 * 60 * 60 * 1000

/** The digest mail's own words (the notices' lines are in the words they were written in). */
export const digestTexts = {
  subject: /*i18n*/ {
    id: 'mail.digest.subject',
    message: '{count, plural, one {Trousseau: # notice} other {Trousseau: # notices}}',
  },
  intro: /*i18n*/ {
    id: 'mail.digest.intro',
    message: 'What happened since your last digest:',
  },
  settings: /*i18n*/ {
    id: 'mail.digest.settings',
    message: 'You receive one mail a day because you chose it in your profile.',
  },
} satisfies Record<string, MessageDescriptor>

/** Whose mails wait for the digest. */
export async function digestReaders(db: Db, userIds: readonly string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set()
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(inArray(users.id, [...userIds]), eq(users.noticeDigest, true)))
  return new Set(rows.map((row) => row.id))
}

/**
 * A notice's mail kept for the reader's digest (once per key), and the digest's job: at the next 08:00 in the
 * organization's time zone, one job per reader and day.
 */
export async function keepForDigest(
  db: Db,
  input: { userId: string; key: string; mail: MailMessage; now: Date; organizationId: string | null },
): Promise<NewJob> {
  await db
    .insert(noticeDigestItems)
    .values({
      userId: input.userId,
      dedupeKey: input.key,
      subject: input.mail.subject,
      summary: input.mail.summary ?? '',
      link: input.mail.link ?? null,
      createdAt: input.now,
    })
    .onConflictDoNothing(
      // Stryker disable next-line ObjectLiteral: the key is the only unique column a new row (random id) can clash on
      { target: noticeDigestItems.dedupeKey },
    )
  const organization = input.organizationId ? await findOrganization(db, input.organizationId) : null
  const runAt = nextDigestAt(organization?.timeZone ?? 'Europe/Paris', input.now)
  return {
    kind: DIGEST_JOB,
    payload: { userId: input.userId },
    runAt,
    now: input.now,
    organizationId: input.organizationId,
    dedupeKey: `digest:${input.userId}:${runAt.toISOString()}`,
  }
}

/** 08:00 today in the zone if still to come, else tomorrow's. */
function nextDigestAt(timeZone: string, now: Date): Date {
  const today = calendarDayIn(timeZone, now)
  const at = atHourIn(timeZone, today, DIGEST_HOUR)
  return at > now ? at : atHourIn(timeZone, shiftCalendarDay(today, 1), DIGEST_HOUR)
}

const DigestPayloadSchema = v.object({ userId: v.string() })

/** One mail with every notice kept for the reader and not sent yet (oldest first), marked sent with it. */
function digestHandler(deps: Pick<AppDeps, 'database' | 'clock'>): JobHandler {
  const { db } = deps.database
  return async (job) => {
    const { userId } = v.parse(DigestPayloadSchema, job.payload)
    await db.transaction(async (tx) => {
      const [reader] = await tx.select().from(users).where(eq(users.id, userId))
      // Stryker disable next-line ConditionalExpression: a reader's notices go with them (cascade): none is found below
      if (!reader) return
      const items = await tx
        .select()
        .from(noticeDigestItems)
        .where(and(eq(noticeDigestItems.userId, userId), isNull(noticeDigestItems.sentAt)))
        .orderBy(asc(noticeDigestItems.createdAt), asc(noticeDigestItems.id))
        .limit(DIGEST_ITEMS_MAX)
        .for('update')
      if (items.length === 0) return
      const i18n = translator(reader.locale)
      const lines = items.map((item) =>
        [item.subject, item.summary, item.link].filter((part) => part).join('\n'),
      )
      const mail = renderMail({
        to: reader.email,
        locale: reader.locale,
        subject: i18n._({ ...digestTexts.subject, values: { count: items.length } }),
        preheader: items[0]!.subject,
        paragraphs: [
          i18n._(signInMessages.greeting),
          i18n._(digestTexts.intro),
          ...lines,
          i18n._(digestTexts.settings),
        ],
        signature: i18n._(signInMessages.signature),
      })
      await tx
        .update(noticeDigestItems)
        .set({ sentAt: deps.clock.now() })
        .where(
          inArray(
            noticeDigestItems.id,
            items.map((item) => item.id),
          ),
        )
      const now = deps.clock.now()
      // More than one mail holds: the rest leave with tomorrow's.
      const tomorrow = new Date(now.getTime() + DAY_MS)
      const more: NewJob[] =
        items.length === DIGEST_ITEMS_MAX
          ? [
              {
                kind: DIGEST_JOB,
                payload: { userId },
                runAt: tomorrow,
                now,
                organizationId: job.organizationId,
                dedupeKey: `digest:${userId}:${tomorrow.toISOString()}`,
              },
            ]
          : []
      await enqueueJobs(tx, [
        mailJob(mail, { now, organizationId: job.organizationId, dedupeKey: `mail:${job.id}` }),
        ...more,
      ])
    })
    return undefined
  }
}

export function digestJobs(deps: Pick<AppDeps, 'database' | 'clock'>): JobHandlers {
  return { [DIGEST_JOB]: digestHandler(deps) }
}
