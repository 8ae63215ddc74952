import * as v from 'valibot'
import { RETURN_GRACE_MS, shiftCalendarDay } from '../../../contract/transfers.ts'
import type { Db } from '../../db/client.ts'
import type { TransferRow } from '../../db/schema.ts'
import type { AppDeps } from '../../deps.ts'
import type { MessageDescriptor } from '../../i18n/translator.ts'
import { enqueueJobs, type NewJob } from '../../jobs/queue.ts'
import type { JobHandler, JobHandlers } from '../../jobs/runner.ts'
import {
  escalationMail,
  REMINDER_STEPS,
  type ReminderMailInput,
  type ReminderStep,
  reminderMail,
} from '../../mail/reminder-mail.ts'
import { transferTexts } from '../../mail/transfer-texts.ts'
import { activeMembersWith } from '../../shared/active-members.ts'
import { displayName } from '../../shared/person.ts'
import { atHourIn, calendarDayIn, hourIn } from '../../shared/time-zones.ts'
import { findTransferRow, type TransferViewRow } from '../../shared/transfer-view.ts'
import { type PersonalNotice, personalNoticeJobs } from '../notices/deliver.ts'
import { enqueueWebhookEvent, namedEventId } from '../webhooks/enqueue.ts'

const REMINDER_JOB = 'transfer.reminder'
/** Reminders go out at 09:00 in the organization's time zone, and never during its night (21:00–08:00). */
const REMINDER_HOUR = 9
const QUIET_FROM_HOUR = 21
const QUIET_UNTIL_HOUR = 8

type Window = Pick<TransferRow, 'fromDate' | 'toDate'>

/** The mails' steps, and the window's first morning, told by push only (the eve's mail said it already). */
type Step = ReminderStep | 'pickup_today'
const STEPS: readonly Step[] = [...REMINDER_STEPS, 'pickup_today']

const pickupToday = {
  title: /*i18n*/ {
    id: 'push.reminder.pickupToday.title',
    message: 'Today: pick up the keychain “{keychain}”',
  },
  body: /*i18n*/ {
    id: 'push.reminder.pickupToday.body',
    message: '{organization} lends it to you from today; the last day to pick it up is {lastDay}.',
  },
} satisfies Record<string, MessageDescriptor>

/** The day of each step: the eve of the window and its first day, the eve of the to-date, the to-date, the two
 * days after. */
const stepDay: Record<Step, (window: Window) => string> = {
  pickup_tomorrow: (w) => shiftCalendarDay(w.fromDate, -1),
  pickup_today: (w) => w.fromDate,
  due_tomorrow: (w) => shiftCalendarDay(w.toDate, -1),
  due_today: (w) => w.toDate,
  overdue: (w) => shiftCalendarDay(w.toDate, 1),
  escalation: (w) => shiftCalendarDay(w.toDate, 2),
}

/** When each reminder of a window goes out. */
function reminderSchedule(timeZone: string, window: Window) {
  return STEPS.map((step) => ({
    step,
    at: atHourIn(timeZone, stepDay[step](window), REMINDER_HOUR),
  }))
}

/**
 * The reminder jobs of a transfer's window, those still to come at `now`, to enqueue in the transaction that
 * writes the window (an authorization, an extension). Each job decides when it runs whether it still applies,
 * so a return or a cancellation needs no clean-up, and a moved window's old jobs find it moved and do nothing.
 */
export function reminderJobs(
  transfer: Pick<TransferRow, 'id' | 'organizationId'> & Window,
  timeZone: string,
  now: Date,
): NewJob[] {
  return reminderSchedule(timeZone, transfer)
    .filter(({ at }) => at > now)
    .map(({ step, at }) => ({
      kind: REMINDER_JOB,
      payload: { transferId: transfer.id, step, fromDate: transfer.fromDate, toDate: transfer.toDate },
      runAt: at,
      now,
      organizationId: transfer.organizationId,
      dedupeKey: `reminder:${transfer.id}:${step}:${transfer.fromDate}:${transfer.toDate}`,
    }))
}

/** Whether a step still applies to the transfer as it stands: never once returned or cancelled. */
function stillApplies(step: Step, transfer: TransferRow, now: Date): boolean {
  const t = now.getTime()
  switch (step) {
    case 'pickup_tomorrow':
      return transfer.status === 'SCHEDULED' && t < transfer.startsAt.getTime()
    case 'pickup_today':
      return transfer.status === 'SCHEDULED' && t < transfer.endsAt.getTime()
    case 'due_tomorrow':
      return transfer.status === 'TRANSFERRED' && t < transfer.endsAt.getTime()
    case 'due_today':
      return transfer.status === 'TRANSFERRED' && t < transfer.endsAt.getTime() + RETURN_GRACE_MS
    default:
      return transfer.status === 'TRANSFERRED'
  }
}

/** During the organization's night, the next 08:00 there; otherwise null (a reminder may go now). */
function quietUntil(timeZone: string, now: Date): Date | null {
  const hour = hourIn(timeZone, now)
  if (hour >= QUIET_UNTIL_HOUR && hour < QUIET_FROM_HOUR) return null
  const today = calendarDayIn(timeZone, now)
  return atHourIn(timeZone, hour >= QUIET_FROM_HOUR ? shiftCalendarDay(today, 1) : today, QUIET_UNTIL_HOUR)
}

const ReminderPayloadSchema = v.object({
  transferId: v.string(),
  step: v.picklist(STEPS),
  fromDate: v.string(),
  toDate: v.string(),
})

export function mailInput(
  row: TransferViewRow,
  publicUrl: string,
  to: { email: string; locale: 'fr' | 'en' },
) {
  return {
    to: to.email,
    locale: to.locale,
    publicUrl,
    transferId: row.transfer.id,
    organizationName: row.organization.name,
    keychainName: row.keychainName ?? row.transfer.keychainName,
    fromDate: row.transfer.fromDate,
    toDate: row.transfer.toDate,
  } satisfies ReminderMailInput
}

/** The active admins and managers of the transfer's organization, but the holder. */
export const organizationManagers = (db: Db, row: TransferViewRow) =>
  activeMembersWith(db, row.transfer.organizationId, ['ADMIN', 'MANAGER'], row.recipient.id)

/**
 * A reminder's notices: an escalation to the organization's managers (`lent_overdue`), any other step to the
 * holder while a member (`reminder`); each person's channels decide mail, push or both.
 */
async function noticesFor(
  db: Db,
  step: Step,
  row: TransferViewRow,
  publicUrl: string,
): Promise<PersonalNotice[]> {
  const { transfer } = row
  const subject = `transfer:${transfer.id}:${step}:${transfer.fromDate}:${transfer.toDate}`
  if (step === 'escalation') {
    const holderName = displayName(row.recipient)
    return (await organizationManagers(db, row)).map((admin) => ({
      userId: admin.id,
      kind: 'lent_overdue',
      subject,
      mail: escalationMail({ ...mailInput(row, publicUrl, admin), holderName }),
    }))
  }
  const { recipient, recipientStatus } = row
  const member = recipientStatus !== null && recipientStatus !== 'DISABLED'
  if (!member) return []
  if (step === 'pickup_today') {
    const text = transferTexts(mailInput(row, publicUrl, recipient))
    return [
      {
        userId: recipient.id,
        kind: 'reminder',
        subject,
        mail: null,
        push: {
          title: text(pickupToday.title),
          body: text(pickupToday.body),
          url: `${recipient.locale === 'en' ? '/en' : ''}/app/transfers/requests/${transfer.id}`,
          tag: `reminder:${subject}`,
        },
      },
    ]
  }
  return [
    {
      userId: recipient.id,
      kind: 'reminder',
      subject,
      mail: reminderMail(step, mailInput(row, publicUrl, recipient)),
    },
  ]
}

/**
 * The `transfer.overdue` webhook event, when the overdue reminder finds the keys still out (before its quiet
 * hours: machines do not sleep). Named by the transfer and its to-date, so a deferred or retried run, or a
 * second process, writes it once.
 */
const overdueWebhook = (db: Db, transfer: TransferRow, now: Date) =>
  enqueueWebhookEvent(db, {
    organizationId: transfer.organizationId,
    type: 'transfer.overdue',
    occurredAt: now,
    eventId: namedEventId(`transfer.overdue:${transfer.id}:${transfer.toDate}`),
    data: {
      transferIds: [transfer.id],
      keychainIds: [transfer.keychainId],
      holderId: transfer.recipientId,
      toDate: transfer.toDate,
    },
  })

/**
 * Runs a reminder: when it still applies and it is daytime in the organization, its notices become mail and push
 * jobs (keyed by the step and each person or device, so a retried run enqueues nothing twice); at night it waits
 * for 08:00.
 */
function reminderHandler(deps: Pick<AppDeps, 'database' | 'clock' | 'config'>): JobHandler {
  const { db } = deps.database
  return async (job) => {
    const payload = v.parse(ReminderPayloadSchema, job.payload)
    const row = await findTransferRow(db, payload.transferId)
    if (!row) return undefined
    const { transfer, organization } = row
    if (transfer.fromDate !== payload.fromDate || transfer.toDate !== payload.toDate) return undefined
    const now = deps.clock.now()
    if (!stillApplies(payload.step, transfer, now)) return undefined
    if (payload.step === 'overdue') await overdueWebhook(db, transfer, now)
    const quiet = quietUntil(organization.timeZone, now)
    if (quiet) return { deferUntil: quiet }
    const { publicUrl } = deps.config
    const notices = await noticesFor(db, payload.step, row, publicUrl)
    await enqueueJobs(
      db,
      await personalNoticeJobs(db, notices, { now, organizationId: organization.id, publicUrl }),
    )
    return undefined
  }
}

/** The jobs this module runs, for the server to register (`server/job-handlers.ts`). */
export function transferJobs(deps: Pick<AppDeps, 'database' | 'clock' | 'config'>): JobHandlers {
  return { [REMINDER_JOB]: reminderHandler(deps) }
}
