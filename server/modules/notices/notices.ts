import { eq } from 'drizzle-orm'
import * as v from 'valibot'
import type { Db } from '../../db/client.ts'
import { orders, organizations, subscriptions, users } from '../../db/schema.ts'
import type { AppDeps } from '../../deps.ts'
import { formatCalendarDay, formatDayIn } from '../../i18n/format.ts'
import { mailJob } from '../../jobs/mail.ts'
import { enqueueJobs } from '../../jobs/queue.ts'
import type { JobHandler, JobHandlers } from '../../jobs/runner.ts'
import { noticeMail } from '../../mail/notice-mail.ts'
import { activeMembersWith } from '../../shared/active-members.ts'
import { orderReference } from '../../shared/order-reference.ts'
import { displayName } from '../../shared/person.ts'
import { findTransferRow } from '../../shared/transfer-view.ts'
import { digestJobs } from './digest.ts'
import { NOTICE_JOB, type NoticePayload, NoticePayloadSchema } from './job.ts'

type Reader = { id: string; email: string; locale: 'fr' | 'en' }
type Notice = { readers: Reader[]; path: string; values: (reader: Reader) => Record<string, string> }

const appPath = (locale: string, path: string) => `${locale === 'en' ? '/en' : ''}${path}`

/**
 * A pickup or return is told to whoever authorized the transfer while they still manage transfers there (and
 * did not do it themselves), else to the organization's admins.
 */
async function transferNotice(
  db: Db,
  payload: Extract<NoticePayload, { transferId: string }>,
): Promise<Notice | null> {
  const row = await findTransferRow(db, payload.transferId)
  if (!row) return null
  const { transfer, organization } = row
  const managers = await activeMembersWith(db, organization.id, ['ADMIN', 'MANAGER'], payload.actorId)
  const authorizer = managers.find((each) => each.id === transfer.authorizedById)
  const readers = authorizer
    ? [authorizer]
    : await activeMembersWith(db, organization.id, ['ADMIN'], payload.actorId)
  const [actor] = await db.select().from(users).where(eq(users.id, payload.actorId))
  return {
    readers,
    path: '/app/transfers',
    values: (reader) => ({
      keychain: row.keychainName ?? transfer.keychainName,
      holder: displayName(row.recipient),
      organization: organization.name,
      receiver: actor ? displayName(actor) : '',
      date: formatDayIn(reader.locale, new Date(payload.at), organization.timeZone),
      to: formatCalendarDay(reader.locale, transfer.toDate),
    }),
  }
}

/** An order's progress is told to the organization's admins. */
async function orderNotice(db: Db, orderId: string): Promise<Notice | null> {
  const [row] = await db
    .select({ order: orders, organization: organizations })
    .from(orders)
    .innerJoin(organizations, eq(organizations.id, orders.organizationId))
    .where(eq(orders.id, orderId))
  if (!row) return null
  return {
    readers: await activeMembersWith(db, row.organization.id, ['ADMIN']),
    path: `/app/orders/${row.order.id}`,
    values: () => ({ reference: orderReference(row.order), organization: row.organization.name }),
  }
}

/** A plan's period is told to the organization's admins; "ending" only while that period still ends then. */
async function subscriptionNotice(
  db: Db,
  payload: Extract<NoticePayload, { organizationId: string }>,
): Promise<Notice | null> {
  const [row] = await db
    .select({ subscription: subscriptions, organization: organizations })
    .from(subscriptions)
    .innerJoin(organizations, eq(organizations.id, subscriptions.organizationId))
    .where(eq(subscriptions.organizationId, payload.organizationId))
  if (!row) return null
  const end = row.subscription.currentPeriodEnd
  if (payload.kind === 'subscription.ending' && end.toISOString() !== payload.periodEnd) return null
  return {
    readers: await activeMembersWith(db, row.organization.id, ['ADMIN']),
    path: '/app/plans',
    values: (reader) => ({
      plan: row.subscription.planName,
      organization: row.organization.name,
      // The period ends as its last day does: that day is named.
      date: formatDayIn(reader.locale, new Date(end.getTime() - 1), row.organization.timeZone),
    }),
  }
}

function noticeOf(db: Db, payload: NoticePayload): Promise<Notice | null> {
  if ('transferId' in payload) return transferNotice(db, payload)
  if ('orderId' in payload) return orderNotice(db, payload.orderId)
  return subscriptionNotice(db, payload)
}

export function noticeHandler(deps: Pick<AppDeps, 'database' | 'clock' | 'config'>): JobHandler {
  const { db } = deps.database
  const base = deps.config.publicUrl.replace(/\/+$/, '')
  return async (job) => {
    const payload = v.parse(NoticePayloadSchema, job.payload) as NoticePayload
    const notice = await noticeOf(db, payload)
    if (!notice) return undefined
    const now = deps.clock.now()
    await enqueueJobs(
      db,
      notice.readers.map((reader) =>
        mailJob(
          noticeMail(payload.kind, {
            to: reader.email,
            locale: reader.locale,
            href: `${base}${appPath(reader.locale, notice.path)}`,
            values: notice.values(reader),
          }),
          { now, organizationId: job.organizationId, dedupeKey: `mail:${job.id}:${reader.id}` },
        ),
      ),
    )
    return undefined
  }
}

/** The jobs this module runs, for the server to register (`server/job-handlers.ts`). */
export function noticeJobs(deps: Pick<AppDeps, 'database' | 'clock' | 'config'>): JobHandlers {
  return { [NOTICE_JOB]: noticeHandler(deps), ...digestJobs(deps) }
}
