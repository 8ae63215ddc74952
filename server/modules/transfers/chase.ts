import { and, eq, isNull, lte, or } from 'drizzle-orm'
import { isExpired } from '../../../contract/transfer-state.ts'
import type { Transfer } from '../../../contract/transfers.ts'
import { transfers, type UserRow } from '../../db/schema.ts'
import type { AppDeps } from '../../deps.ts'
import { notFound } from '../../http/errors.ts'
import { mailJob } from '../../jobs/mail.ts'
import { enqueueJobs } from '../../jobs/queue.ts'
import { reminderMail } from '../../mail/reminder-mail.ts'
import { displayName } from '../../shared/person.ts'
import { findTransferRow, toTransfer } from '../../shared/transfer-view.ts'
import { chasedRecently, notOverdue } from './errors.ts'
import { mailInput } from './reminders.ts'

type Deps = Pick<AppDeps, 'database' | 'clock' | 'jobs' | 'config'>

/** One chase an hour per transfer, whoever sends it. */
const CHASE_INTERVAL_MS = 60 * 60 * 1000

/**
 * `POST /transfers/{id}/chase`: a manager mails the holder of an overdue transfer now, in the holder's language
 * (whatever their reminder setting: a person asked for it). The conditional UPDATE of `chased_at` is the limit:
 * of two chases at once, one writes and mails, the other answers 429.
 */
export async function chaseTransfer(
  deps: Deps,
  input: { organizationId: string; actor: UserRow; id: string },
): Promise<Transfer> {
  const now = deps.clock.now()
  const { db } = deps.database
  const locale = input.actor.locale
  const row = await findTransferRow(db, input.id)
  if (!row || row.transfer.organizationId !== input.organizationId) throw notFound('No such transfer.')
  const { transfer, organization } = row
  if (transfer.status !== 'TRANSFERRED' || !isExpired(transfer, now)) throw notOverdue(locale)
  const since = new Date(now.getTime() - CHASE_INTERVAL_MS)
  const chased = await db.transaction(async (tx) => {
    const updated = await tx
      .update(transfers)
      .set({ chasedAt: now })
      .where(
        and(
          eq(transfers.id, transfer.id),
          eq(transfers.status, 'TRANSFERRED'),
          or(isNull(transfers.chasedAt), lte(transfers.chasedAt, since)),
        ),
      )
      .returning({ id: transfers.id })
    if (updated.length === 0) return false
    const message = reminderMail('chase', {
      ...mailInput(row, deps.config.publicUrl, row.recipient),
      chaserName: displayName(input.actor),
    })
    await enqueueJobs(tx, [mailJob(message, { now, organizationId: organization.id })])
    return true
  })
  if (!chased) {
    const [current] = await db.select().from(transfers).where(eq(transfers.id, transfer.id))
    if (current?.status !== 'TRANSFERRED') throw notOverdue(locale)
    const last = current.chasedAt ?? now
    throw chasedRecently(locale, new Date(last.getTime() + CHASE_INTERVAL_MS), now, organization.timeZone)
  }
  deps.jobs.nudge()
  const view = await findTransferRow(db, transfer.id)
  // Stryker disable next-line all: the transfer was just read and written
  if (!view) throw notFound('No such transfer.')
  return toTransfer(db, view, input.actor.id, now, deps.config.publicUrl)
}
