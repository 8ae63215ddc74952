import { createHash } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { ErrorCode } from '../../../contract/errors.ts'
import type { Locale } from '../../../contract/locale.ts'
import type { FoundReport } from '../../../contract/tags.ts'
import { organizations } from '../../db/schema.ts'
import type { AppDeps } from '../../deps.ts'
import { ApiError, notFound } from '../../http/errors.ts'
import { ipBucket } from '../../http/ip-bucket.ts'
import { hitRateLimit, type RateLimitPolicy } from '../../http/rate-limit.ts'
import { enqueueJobs } from '../../jobs/queue.ts'
import { foundReportMail } from '../../mail/found-report-mail.ts'
import { activeMembersWith } from '../../shared/active-members.ts'
import { appendEvent } from '../events/append.ts'
import { finderEmailOf, maskAddresses } from '../found-reports/contact.ts'
import { storeFoundReport } from '../found-reports/service.ts'
import { personalNoticeJobs } from '../notices/deliver.ts'
import { findTagByPublicId } from './service.ts'

const HOUR = 60 * 60 * 1000
/** A finder writes once or twice; a script writing to every tag id it guesses meets these first. */
export const FOUND_REPORTS_PER_IP: RateLimitPolicy = { limit: 5, windowMs: HOUR }
/**
 * How many finders may write about one tag a day. It counts reporters, not messages: a reporter's second
 * message is not counted again, so no one reporter can use up the tag's allowance for the others.
 */
export const FOUND_REPORTS_PER_TAG: RateLimitPolicy = { limit: 10, windowMs: 24 * HOUR }
/**
 * How many messages one reporter may write about one tag a day (a message and a correction). A reporter is
 * their network (`ipBucket`) and, when their contact holds one, their e-mail address: either one over it is
 * refused, so changing network while keeping the address (or the other way round) does not help.
 */
export const FOUND_REPORTS_PER_REPORTER: RateLimitPolicy = { limit: 2, windowMs: 24 * HOUR }

type Deps = Pick<AppDeps, 'database' | 'clock' | 'jobs' | 'config' | 'logger'>

const rateLimited = (retryAfterS: number) =>
  new ApiError(429, ErrorCode.rateLimited, 'Too many messages. Please try again later.', {
    headers: { 'Retry-After': String(retryAfterS) },
  })

/**
 * The e-mail address in a finder's contact, if any, in the form that names one mailbox: lower case, without a
 * `+tag` sub-address. Hashed: the counters table keeps no finder's address.
 */
export function reporterEmailKey(contact: string): string | null {
  const address = /[^\s@<>()[\]"',;:]+@[^\s@<>()[\]"',;:]+\.[^\s@<>()[\]"',;:]+/.exec(contact)?.[0]
  if (!address) return null
  const [local = '', domain = ''] = address.toLowerCase().split('@')
  const mailbox = `${local.split('+')[0]}@${domain.replace(/\.+$/, '')}`
  return createHash('sha256').update(mailbox).digest('base64url').slice(0, 22)
}

/**
 * Keeps the finder's report (with the language they wrote in, for replies), mails it to every ACTIVE ADMIN of
 * the organization owning the tag, each in their language, and records in its ledger that a finder wrote.
 */
export async function reportFoundTag(
  deps: Deps,
  input: { publicId: string; report: FoundReport; ip: string; locale: Locale },
): Promise<void> {
  const { db } = deps.database
  const now = deps.clock.now()
  const perIp = await hitRateLimit(db, `found-report:ip:${ipBucket(input.ip)}`, FOUND_REPORTS_PER_IP, now)
  if (perIp.limited) throw rateLimited(perIp.retryAfterS)
  const tag = await findTagByPublicId(db, input.publicId)
  if (!tag) throw notFound('No such tag.')
  const reporter = [`ip:${ipBucket(input.ip)}`]
  const email = reporterEmailKey(input.report.contact)
  if (email) reporter.push(`email:${email}`)
  let reports = 0
  for (const who of reporter) {
    const state = await hitRateLimit(db, `found-report:tag:${tag.id}:${who}`, FOUND_REPORTS_PER_REPORTER, now)
    if (state.limited) throw rateLimited(state.retryAfterS)
    reports = Math.max(reports, state.count)
  }
  // Only a reporter's first message takes a place in the tag's allowance.
  if (reports === 1) {
    const perTag = await hitRateLimit(db, `found-report:tag:${tag.id}`, FOUND_REPORTS_PER_TAG, now)
    if (perTag.limited) throw rateLimited(perTag.retryAfterS)
  }

  const [organization] = await db
    .select({ name: organizations.name })
    .from(organizations)
    .where(eq(organizations.id, tag.organizationId))
  const admins = await activeMembersWith(db, tag.organizationId, ['ADMIN'])
  // The finder's e-mail address stays on the server: the admins read it masked and reply through the app.
  const canReply = finderEmailOf(input.report.contact) !== null
  // The report, its mails and the ledger's entry (that a finder wrote about the tag, not what they wrote nor how
  // to reach them) in one transaction.
  await db.transaction(async (tx) => {
    const stored = await storeFoundReport(tx, {
      organizationId: tag.organizationId,
      tagId: tag.id,
      message: input.report.message,
      contact: input.report.contact,
      locale: input.locale,
      now,
    })
    const notices = admins.map((admin) => ({
      userId: admin.id,
      kind: 'found_report' as const,
      subject: `found-report:${stored.id}`,
      mail: foundReportMail({
        to: admin.email,
        locale: admin.locale,
        publicUrl: deps.config.publicUrl,
        organizationName: organization?.name ?? '',
        tag,
        reportId: stored.id,
        message: maskAddresses(input.report.message),
        contact: maskAddresses(input.report.contact),
        canReply,
      }),
    }))
    const { publicUrl } = deps.config
    await enqueueJobs(
      tx,
      await personalNoticeJobs(tx, notices, { now, organizationId: tag.organizationId, publicUrl }),
    )
    await appendEvent(tx, {
      organizationId: tag.organizationId,
      kind: 'found_report.received',
      actorId: null,
      serverTime: now,
      tagIds: [tag.id],
      payload: { reportId: stored.id },
    })
  })
  deps.jobs.nudge()
}
