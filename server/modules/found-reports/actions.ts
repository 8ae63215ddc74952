import { count, eq } from 'drizzle-orm'
import { ErrorCode } from '../../../contract/errors.ts'
import {
  FOUND_REPORT_REPLIES_MAX,
  type FoundReportDetail,
  type FoundReportStatus,
} from '../../../contract/found-reports.ts'
import type { Db } from '../../db/client.ts'
import {
  type FoundReportRow,
  foundReportReplies,
  foundReports,
  organizations,
  tags,
} from '../../db/schema.ts'
import type { AppDeps } from '../../deps.ts'
import { ApiError } from '../../http/errors.ts'
import { hitRateLimit, type RateLimitPolicy } from '../../http/rate-limit.ts'
import { mailJob } from '../../jobs/mail.ts'
import { enqueueJobs } from '../../jobs/queue.ts'
import { foundReportReplyMail } from '../../mail/found-report-reply-mail.ts'
import { appendEvent } from '../events/append.ts'
import { findReport, getFoundReport } from './service.ts'

type Deps = Pick<AppDeps, 'database' | 'clock' | 'jobs' | 'config'>

const HOUR = 60 * 60 * 1000
/**
 * Replies one organization may mail to finders in an hour, whatever the report: a hijacked staff account
 * cannot turn the server into a mailer (each report is capped at `FOUND_REPORT_REPLIES_MAX` besides).
 */
export const FOUND_REPORT_REPLIES_PER_ORGANIZATION: RateLimitPolicy = { limit: 30, windowMs: HOUR }

/** Moves the report's status, with who and when, and its ledger entry; the same status changes nothing. */
async function moveStatus(
  tx: Db,
  report: FoundReportRow,
  to: FoundReportStatus,
  actorId: string,
  now: Date,
): Promise<boolean> {
  if (report.status === to) return false
  await tx
    .update(foundReports)
    .set({ status: to, statusChangedAt: now, statusChangedBy: actorId, updatedAt: now })
    .where(eq(foundReports.id, report.id))
  return true
}

const statusEvent = (report: FoundReportRow, to: FoundReportStatus, actorId: string, now: Date) => ({
  organizationId: report.organizationId,
  kind: 'found_report.status_changed' as const,
  actorId,
  serverTime: now,
  tagIds: [report.tagId],
  payload: { reportId: report.id, from: report.status, to },
})

/** `PATCH /found-reports/{id}`: any status to any other (staff correct a wrong click). */
export async function changeFoundReportStatus(
  deps: Deps,
  input: { organizationId: string; actorId: string; id: string; status: FoundReportStatus },
): Promise<FoundReportDetail> {
  const { db } = deps.database
  const now = deps.clock.now()
  await db.transaction(async (tx) => {
    const report = await findReport(tx, input.organizationId, input.id, { lock: true })
    if (await moveStatus(tx, report, input.status, input.actorId, now))
      await appendEvent(tx, statusEvent(report, input.status, input.actorId, now))
  })
  return getFoundReport(db, input.organizationId, input.id)
}

const rateLimited = (retryAfterS: number) =>
  new ApiError(429, ErrorCode.rateLimited, 'Too many replies. Please try again later.', {
    headers: { 'Retry-After': String(retryAfterS) },
  })

/**
 * `POST /found-reports/{id}/replies`: mails the reply to the address the finder left, in their language, from the
 * server's address; keeps it with its author; a NEW report becomes CONTACTED. All in one transaction with the
 * ledger's entries, so a reply is kept, mailed and recorded, or none of these.
 */
export async function replyToFinder(
  deps: Deps,
  input: { organizationId: string; actorId: string; id: string; message: string },
): Promise<FoundReportDetail> {
  const { db } = deps.database
  const now = deps.clock.now()
  // A foreign or unknown report answers 404 before it costs the organization a reply.
  await findReport(db, input.organizationId, input.id)
  const limit = await hitRateLimit(
    db,
    `found-report:replies:${input.organizationId}`,
    FOUND_REPORT_REPLIES_PER_ORGANIZATION,
    now,
  )
  if (limit.limited) throw rateLimited(limit.retryAfterS)
  await db.transaction(async (tx) => {
    const report = await findReport(tx, input.organizationId, input.id, { lock: true })
    if (!report.finderEmail)
      throw new ApiError(
        409,
        ErrorCode.finderUnreachable,
        'The finder left no e-mail address: call them, or mark the report as contacted.',
      )
    const [sent] = await tx
      .select({ count: count() })
      .from(foundReportReplies)
      .where(eq(foundReportReplies.reportId, report.id))
    if ((sent?.count ?? 0) >= FOUND_REPORT_REPLIES_MAX)
      throw new ApiError(
        409,
        ErrorCode.repliesExhausted,
        `This report has had its ${FOUND_REPORT_REPLIES_MAX} replies.`,
      )
    const [tag] = await tx
      .select({ code: tags.code, publicId: tags.publicId })
      .from(tags)
      .where(eq(tags.id, report.tagId))
    const [organization] = await tx
      .select({ name: organizations.name })
      .from(organizations)
      .where(eq(organizations.id, report.organizationId))
    await tx
      .insert(foundReportReplies)
      .values({ reportId: report.id, authorId: input.actorId, message: input.message, createdAt: now })
    const mail = foundReportReplyMail({
      to: report.finderEmail,
      locale: report.locale,
      publicUrl: deps.config.publicUrl,
      organizationName: organization?.name ?? '',
      tag: tag!,
      finderMessage: report.message,
      reply: input.message,
    })
    await enqueueJobs(tx, [mailJob(mail, { now, organizationId: report.organizationId })])
    const contacted = report.status === 'NEW'
    if (contacted) await moveStatus(tx, report, 'CONTACTED', input.actorId, now)
    else await tx.update(foundReports).set({ updatedAt: now }).where(eq(foundReports.id, report.id))
    // The ledger keeps that someone replied (not what they wrote, nor to whom), then the status it moved.
    await appendEvent(tx, {
      organizationId: report.organizationId,
      kind: 'found_report.replied',
      actorId: input.actorId,
      serverTime: now,
      tagIds: [report.tagId],
      payload: { reportId: report.id },
    })
    if (contacted) await appendEvent(tx, statusEvent(report, 'CONTACTED', input.actorId, now))
  })
  deps.jobs.nudge()
  return getFoundReport(db, input.organizationId, input.id)
}
