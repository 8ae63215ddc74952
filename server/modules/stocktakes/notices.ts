import { and, asc, eq, lte } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import * as v from 'valibot'
import type { Locale } from '../../../contract/locale.ts'
import { shiftCalendarDay } from '../../../contract/transfers.ts'
import type { Db } from '../../db/client.ts'
import { hooks, keychains, organizations, places, stocktakeItems, stocktakes } from '../../db/schema.ts'
import type { AppDeps } from '../../deps.ts'
import { formatCalendarDay, formatDayIn } from '../../i18n/format.ts'
import { type MessageDescriptor, translator } from '../../i18n/translator.ts'
import { mailJob } from '../../jobs/mail.ts'
import { enqueueJobs, type NewJob } from '../../jobs/queue.ts'
import type { JobHandler, JobHandlers } from '../../jobs/runner.ts'
import { renderMail } from '../../mail/layout.ts'
import type { MailMessage } from '../../mail/mailer.ts'
import { signInMessages } from '../../mail/messages.ts'
import { activeMembersWith } from '../../shared/active-members.ts'
import { calendarDayIn } from '../../shared/time-zones.ts'
import { type PersonalNotice, personalNoticeJobs } from '../notices/deliver.ts'
import { dueStage, OVERDUE_AFTER_DAYS, placesWithDueDays } from './due.ts'
import { stocktakeTexts as m } from './texts.ts'

const MISSING_NOTICE_JOB = 'stocktake.missing_notice'
const DUE_SWEEP_JOB = 'stocktake.due_sweep'
/** The daily sweep runs at this hour (UTC): morning in Europe, before the day's work. */
const SWEEP_HOUR_UTC = 6
/** The missing keychains a mail names; the report has them all. */
const MAIL_LINES_MAX = 50

const board = alias(places, 'board')

type Reader = { id: string; email: string; locale: Locale }

const appPath = (locale: Locale, path: string) => `${locale === 'en' ? '/en' : ''}${path}`

function mail(
  reader: Reader,
  input: { subject: MessageDescriptor; paragraphs: string[]; href: string; values: Record<string, unknown> },
): MailMessage {
  const i18n = translator(reader.locale)
  const subject = i18n._({ ...input.subject, values: input.values })
  return renderMail({
    to: reader.email,
    locale: reader.locale,
    subject,
    preheader: input.paragraphs[0] ?? subject,
    paragraphs: [i18n._(signInMessages.greeting), ...input.paragraphs],
    button: { label: i18n._(m.button), href: input.href },
    signature: i18n._(signInMessages.signature),
  })
}

/** The job that tells the admins what a closed stocktake did not find, enqueued in the close's transaction. */
export function missingNoticeJob(stocktakeId: string, organizationId: string, now: Date): NewJob {
  return {
    kind: MISSING_NOTICE_JOB,
    payload: { stocktakeId },
    runAt: now,
    now,
    organizationId,
    dedupeKey: `${MISSING_NOTICE_JOB}:${stocktakeId}`,
  }
}

function missingNoticeHandler(deps: Pick<AppDeps, 'database' | 'clock' | 'config'>): JobHandler {
  const { db } = deps.database
  const base = deps.config.publicUrl.replace(/\/+$/, '')
  return async (job) => {
    const { stocktakeId } = v.parse(v.object({ stocktakeId: v.string() }), job.payload)
    const [row] = await db
      .select({ stocktake: stocktakes, organization: organizations, placeName: places.name })
      .from(stocktakes)
      .innerJoin(organizations, eq(organizations.id, stocktakes.organizationId))
      .leftJoin(places, eq(places.id, stocktakes.placeId))
      .where(eq(stocktakes.id, stocktakeId))
    if (!row?.stocktake.closedAt) return undefined
    const missing = await db
      .select({ name: keychains.name, hookCode: hooks.code, boardName: board.name })
      .from(stocktakeItems)
      .innerJoin(keychains, eq(keychains.id, stocktakeItems.keychainId))
      .leftJoin(hooks, eq(hooks.id, stocktakeItems.expectedHookId))
      .leftJoin(board, eq(board.id, hooks.placeId))
      .where(and(eq(stocktakeItems.stocktakeId, stocktakeId), eq(stocktakeItems.state, 'MISSING')))
      .orderBy(asc(board.name), asc(hooks.position), asc(keychains.name))
    if (missing.length === 0) return undefined
    const { organization, stocktake } = row
    const closedAt = stocktake.closedAt!
    const readers = await activeMembersWith(db, organization.id, ['ADMIN'])
    const now = deps.clock.now()
    await enqueueJobs(
      db,
      readers.map((reader) => {
        const i18n = translator(reader.locale)
        const values = {
          scope: row.placeName ?? i18n._(m.wholeOrganization),
          organization: organization.name,
          date: formatDayIn(reader.locale, closedAt, organization.timeZone),
          count: missing.length,
        }
        const lines = missing.slice(0, MAIL_LINES_MAX).map((item) =>
          i18n._({
            ...m.missingLine,
            values: {
              keychain: item.name,
              hook: item.hookCode ? `${item.hookCode} (${item.boardName ?? ''})` : i18n._(m.noHook),
            },
          }),
        )
        const more = missing.length - MAIL_LINES_MAX
        const list = [...lines, ...(more > 0 ? [i18n._({ ...m.missingMore, values: { count: more } })] : [])]
        return mailJob(
          mail(reader, {
            subject: m.missingSubject,
            values,
            paragraphs: [i18n._({ ...m.missingBody, values }), list.map((line) => `– ${line}`).join('\n')],
            href: `${base}${appPath(reader.locale, `/app/stocktakes/${stocktakeId}`)}`,
          }),
          { now, organizationId: organization.id, dedupeKey: `mail:${job.id}:${reader.id}` },
        )
      }),
    )
    return undefined
  }
}

/** The next sweep: tomorrow (UTC) at the sweep's hour, once per day whatever the number of processes. */
function sweepJob(now: Date, day: string): NewJob {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number]
  return {
    kind: DUE_SWEEP_JOB,
    payload: { day },
    runAt: new Date(Math.max(now.getTime(), Date.UTC(year, month - 1, date, SWEEP_HOUR_UTC))),
    now,
    dedupeKey: `${DUE_SWEEP_JOB}:${day}`,
  }
}

/**
 * Makes sure the daily sweep of recurring stocktakes runs (at start-up): today's is enqueued unless it exists,
 * and each run enqueues the next day's.
 */
export async function scheduleStocktakeSweep(db: Db, now: Date): Promise<void> {
  await enqueueJobs(db, [sweepJob(now, now.toISOString().slice(0, 10))])
}

/**
 * The daily sweep: each place whose recurring stocktake falls due (or is a week overdue) on its organization's
 * calendar gets its admins one mail for each, in their language (a dedupe key per place, day and reader: a
 * second run, or a second process, sends nothing more). A notice is sent within its week only, so a long-due
 * place is not mailed again once the queue has forgotten the first mail.
 */
function dueSweepHandler(deps: Pick<AppDeps, 'database' | 'clock' | 'config'>): JobHandler {
  const { db } = deps.database
  const base = deps.config.publicUrl.replace(/\/+$/, '')
  return async () => {
    const now = deps.clock.now()
    // Every place due by tomorrow anywhere (time zones run a day apart at most); each is judged on its own day.
    const rows = await placesWithDueDays(
      db,
      lte(places.stocktakeDueOn, shiftCalendarDay(now.toISOString().slice(0, 10), 1)),
    )
    const notices = new Map<string, PersonalNotice[]>()
    const admins = new Map<string, Reader[]>()
    for (const place of rows) {
      const today = calendarDayIn(place.timeZone, now)
      const dueOn = place.dueOn!
      const stage = dueStage(dueOn, today)
      if (stage === 'not_due') continue
      const since = stage === 'due' ? dueOn : shiftCalendarDay(dueOn, OVERDUE_AFTER_DAYS)
      if (today >= shiftCalendarDay(since, OVERDUE_AFTER_DAYS)) continue
      let readers = admins.get(place.organizationId)
      if (!readers) {
        readers = await activeMembersWith(db, place.organizationId, ['ADMIN'])
        admins.set(place.organizationId, readers)
      }
      for (const reader of readers) {
        const i18n = translator(reader.locale)
        const values = {
          place: place.name,
          organization: place.organizationName,
          date: formatCalendarDay(reader.locale, dueOn),
        }
        const inOrganization = notices.get(place.organizationId) ?? []
        notices.set(place.organizationId, inOrganization)
        inOrganization.push({
          userId: reader.id,
          kind: 'stocktake_due',
          subject: `stocktake.${stage}:${place.id}:${dueOn}`,
          mail: mail(reader, {
            subject: stage === 'due' ? m.dueSubject : m.overdueSubject,
            values,
            paragraphs: [i18n._({ ...(stage === 'due' ? m.dueBody : m.overdueBody), values })],
            href: `${base}${appPath(reader.locale, '/app/stocktakes')}`,
          }),
        })
      }
    }
    const tomorrow = shiftCalendarDay(now.toISOString().slice(0, 10), 1)
    const jobs: NewJob[] = []
    for (const [organizationId, each] of notices) {
      jobs.push(
        ...(await personalNoticeJobs(db, each, { now, organizationId, publicUrl: deps.config.publicUrl })),
      )
    }
    await enqueueJobs(db, [...jobs, sweepJob(now, tomorrow)])
    return undefined
  }
}

/** The jobs this module runs, for the server to register (`server/job-handlers.ts`). */
export function stocktakeJobs(deps: Pick<AppDeps, 'database' | 'clock' | 'config'>): JobHandlers {
  return { [MISSING_NOTICE_JOB]: missingNoticeHandler(deps), [DUE_SWEEP_JOB]: dueSweepHandler(deps) }
}
