import { inArray } from 'drizzle-orm'
import { type PersonalNoticeKind, type PushMessage, sendsMail, sendsPush } from '../../../contract/notices.ts'
import type { Db } from '../../db/client.ts'
import { pushSubscriptions } from '../../db/schema.ts'
import { mailJob } from '../../jobs/mail.ts'
import type { NewJob } from '../../jobs/queue.ts'
import type { MailMessage } from '../../mail/mailer.ts'
import { pushJob } from '../push/send.ts'
import { channelsOf } from '../push/settings.ts'
import { digestReaders, keepForDigest } from './digest.ts'

/** Something to tell one person, by the channels they chose for its kind. */
export type PersonalNotice = {
  userId: string
  kind: PersonalNoticeKind
  /** What it is about (`transfer:<id>:due_today`): one mail and one push per device, whatever the retries. */
  subject: string
} & (
  | {
      mail: MailMessage
      /** The push of it; by default the mail's subject and summary, opening what its button opens. */
      push?: PushMessage
    }
  /** Told by push only (a handover: the people were there). */
  | { mail: null; push: PushMessage }
)

/** A mail's push: its subject and one line, opening its button's screen (a path of `publicUrl`'s app). */
function pushOfMail(mail: MailMessage, publicUrl: string, tag: string): PushMessage {
  const base = new URL(publicUrl)
  const link = mail.link ? new URL(mail.link, base) : null
  // Stryker disable next-line Regex: PUBLIC_URL is kept without a trailing slash, so only the root's one slash goes
  const basePath = base.pathname.replace(/\/+$/, '')
  const path =
    link && link.origin === base.origin ? link.pathname.slice(basePath.length) + link.search : '/app'
  return { title: mail.subject, body: mail.summary ?? '', url: path.startsWith('/') ? path : `/${path}`, tag }
}

/**
 * The mail and push jobs of some notices: each person's channel for each kind decides (`channelsOf`), a push goes
 * to each of their devices, a mail waits for the daily digest of whoever chose one (but a reminder, which is about
 * its day). Every job has a key naming the notice's kind, subject and person or device, so a retried run, or a
 * channel failing while the other succeeds, never sends one twice.
 */
export async function personalNoticeJobs(
  db: Db,
  notices: readonly PersonalNotice[],
  options: { now: Date; organizationId: string | null; publicUrl: string },
): Promise<NewJob[]> {
  // Stryker disable next-line ConditionalExpression: for no notice channelsOf and digestReaders ask nothing either
  if (notices.length === 0) return []
  const userIds = [...new Set(notices.map((notice) => notice.userId))]
  const kinds = [...new Set(notices.map((notice) => notice.kind))]
  const channels = await channelsOf(db, userIds, kinds)
  // Whoever gets a push for some kind of these (an unknown person has no channels).
  const pushed = [...channels].filter(([, chosen]) => [...chosen.values()].some(sendsPush)).map(([id]) => id)
  // Stryker disable ArrayDeclaration: with nobody to push to, no device is read
  const devices =
    pushed.length === 0
      ? []
      : await db
          .select({ id: pushSubscriptions.id, userId: pushSubscriptions.userId })
          .from(pushSubscriptions)
          .where(inArray(pushSubscriptions.userId, pushed))
  // Stryker restore ArrayDeclaration
  const { now, organizationId } = options
  const digest = await digestReaders(db, userIds)
  const jobs: NewJob[] = []
  for (const notice of notices) {
    const channel = channels.get(notice.userId)?.get(notice.kind)
    // Stryker disable next-line ConditionalExpression: an unknown person has no channel, which sends nothing either
    if (!channel) continue
    const key = `${notice.kind}:${notice.subject}`
    if (sendsMail(channel) && notice.mail) {
      const mailKey = `mail:${key}:${notice.userId}`
      jobs.push(
        digest.has(notice.userId) && notice.kind !== 'reminder'
          ? await keepForDigest(db, {
              userId: notice.userId,
              key: mailKey,
              mail: notice.mail,
              now,
              organizationId,
            })
          : mailJob(notice.mail, { now, organizationId, dedupeKey: mailKey }),
      )
    }
    if (sendsPush(channel)) {
      const message =
        // Stryker disable next-line ConditionalExpression: a notice without a mail has its own push, which `??` takes
        notice.mail === null ? notice.push : (notice.push ?? pushOfMail(notice.mail, options.publicUrl, key))
      for (const device of devices.filter((each) => each.userId === notice.userId)) {
        jobs.push(pushJob(device.id, message, { now, organizationId, dedupeKey: `push:${key}:${device.id}` }))
      }
    }
  }
  return jobs
}
