import { and, eq } from 'drizzle-orm'
import type { Role } from '../../../contract/permissions.ts'
import { isOpen } from '../../../contract/transfer-state.ts'
import type { Transfer } from '../../../contract/transfers.ts'
import type { Db } from '../../db/client.ts'
import { keychains, type TransferRow, transferExtensions, transfers, type UserRow } from '../../db/schema.ts'
import type { AppDeps } from '../../deps.ts'
import { notFound } from '../../http/errors.ts'
import { mailJob } from '../../jobs/mail.ts'
import { enqueueJobs } from '../../jobs/queue.ts'
import {
  type ExtensionMailInput,
  extensionDecidedMail,
  extensionRequestedMail,
} from '../../mail/extension-mail.ts'
import { displayName } from '../../shared/person.ts'
import { calendarDayIn, startOfDayIn } from '../../shared/time-zones.ts'
import { findTransferRow, type TransferViewRow, toTransfer } from '../../shared/transfer-view.ts'
import { appendEvent } from '../events/append.ts'
import { personalNoticeJobs } from '../notices/deliver.ts'
import { extensionDecided, extensionNotAfter, extensionRefused, transferOverlap } from './errors.ts'
import type { PickupInput } from './pickups.ts'
import { mailInput, organizationManagers, reminderJobs } from './reminders.ts'
import { lockVisibleTransfer, overlaps } from './service.ts'

/** Something to extend: a transfer out (overdue included), or one not yet picked up whose window is open. */
const extendable = (transfer: TransferRow, now: Date) =>
  transfer.status === 'TRANSFERRED' || isOpen(transfer, now)

/** The transfer mail's values, with the to-date asked for in place of the current one. */
function extensionMailInput(
  row: TransferViewRow,
  publicUrl: string,
  to: Pick<UserRow, 'email' | 'locale'>,
  dates: { toDate: string; previousToDate: string },
): ExtensionMailInput {
  return { ...mailInput(row, publicUrl, to), ...dates, holderName: displayName(row.recipient) }
}

export type ExtensionRequestInput = PickupInput & { toDate: string; publicUrl: string }

/**
 * `POST /transfers/{id}/extensions`, in the caller's transaction (the route's idempotency record): the recipient
 * asks for a to-date after the current one and after today; the organization's admins and managers are mailed.
 * Someone who cannot see the transfer gets 404; anyone else but the recipient, 409 `not_recipient`.
 */
export async function requestExtension(
  tx: Db,
  input: ExtensionRequestInput,
): Promise<{ view: TransferViewRow; role: Role | null }> {
  const { caller, now } = input
  const locale = caller.locale
  const { locked, view, role } = await lockVisibleTransfer(tx, input.transferId, caller.id)
  if (view.recipient.id !== caller.id) throw extensionRefused(locale, 'not_recipient')
  if (!extendable(locked, now)) throw extensionRefused(locale, 'closed')
  if (input.toDate <= locked.toDate) throw extensionNotAfter(locale, locked.toDate)
  const today = calendarDayIn(view.organization.timeZone, now)
  if (input.toDate <= today) throw extensionNotAfter(locale, today)
  const [pending] = await tx
    .select({ id: transferExtensions.id })
    .from(transferExtensions)
    .where(and(eq(transferExtensions.transferId, locked.id), eq(transferExtensions.status, 'PENDING')))
  if (pending) throw extensionRefused(locale, 'pending')
  await tx.insert(transferExtensions).values({
    transferId: locked.id,
    requestedById: caller.id,
    previousToDate: locked.toDate,
    toDate: input.toDate,
    status: 'PENDING',
    clientTime: input.clientTime,
    fromQueue: input.fromQueue,
    requestedAt: now,
  })
  const dates = { toDate: input.toDate, previousToDate: locked.toDate }
  const managers = await organizationManagers(tx, view)
  await enqueueJobs(
    tx,
    managers.map((manager) =>
      mailJob(extensionRequestedMail(extensionMailInput(view, input.publicUrl, manager, dates)), {
        now,
        organizationId: locked.organizationId,
      }),
    ),
  )
  await appendEvent(tx, {
    organizationId: locked.organizationId,
    kind: 'transfer.extension_requested',
    actorId: caller.id,
    serverTime: now,
    clientTime: input.clientTime,
    fromQueue: input.fromQueue,
    keychainIds: [locked.keychainId],
    transferIds: [locked.id],
    payload: dates,
  })
  const after = await findTransferRow(tx, locked.id)
  // Stryker disable next-line all: the transfer was locked above
  if (!after) throw notFound('No such transfer.')
  return { view: after, role }
}

type Deps = Pick<AppDeps, 'database' | 'clock' | 'jobs' | 'config'>

/**
 * `POST /transfers/{id}/extensions/{extensionId}`: a manager approves (the window's end moves, if no other
 * transfer of the keychain is in the way; the month's allowance is not charged, since no transfer is added) or
 * refuses; the holder is mailed either way. Answering again the same way answers the transfer (a retried
 * request); the other way, 409.
 */
export async function decideExtension(
  deps: Deps,
  input: {
    organizationId: string
    actor: UserRow
    transferId: string
    extensionId: string
    decision: 'approve' | 'refuse'
  },
): Promise<Transfer> {
  const now = deps.clock.now()
  const { db } = deps.database
  const { publicUrl } = deps.config
  const locale = input.actor.locale
  const changed = await db.transaction(async (tx) => {
    const [locked] = await tx
      .select()
      .from(transfers)
      .where(and(eq(transfers.id, input.transferId), eq(transfers.organizationId, input.organizationId)))
      .for('update')
    if (!locked) throw notFound('No such transfer.')
    const [extension] = await tx
      .select()
      .from(transferExtensions)
      .where(and(eq(transferExtensions.id, input.extensionId), eq(transferExtensions.transferId, locked.id)))
      .for('update')
    if (!extension) throw notFound('No such request for more time.')
    const approve = input.decision === 'approve'
    if (extension.status !== 'PENDING') {
      if (extension.status === (approve ? 'APPROVED' : 'REFUSED')) return false
      throw extensionDecided(locale)
    }
    const view = await findTransferRow(tx, locked.id)
    // Stryker disable next-line all: the transfer was locked above
    if (!view) throw notFound('No such transfer.')
    const timeZone = view.organization.timeZone
    let moved = locked
    if (approve) {
      if (!extendable(locked, now)) throw extensionRefused(locale, 'closed')
      // The keychain's row is taken as an authorization takes it: its windows change one at a time.
      await tx
        .select({ id: keychains.id })
        .from(keychains)
        .where(eq(keychains.id, locked.keychainId))
        .for('update')
      const endsAt = startOfDayIn(timeZone, extension.toDate)
      if (await overlaps(tx, locked.keychainId, locked.startsAt, endsAt, now, locked.id)) {
        throw transferOverlap(locale)
      }
      ;[moved = locked] = await tx
        .update(transfers)
        .set({ toDate: extension.toDate, endsAt })
        .where(eq(transfers.id, locked.id))
        .returning()
    }
    await tx
      .update(transferExtensions)
      .set({ status: approve ? 'APPROVED' : 'REFUSED', decidedById: input.actor.id, decidedAt: now })
      .where(eq(transferExtensions.id, extension.id))
    const dates = { toDate: extension.toDate, previousToDate: extension.previousToDate }
    const holderMail = extensionDecidedMail(
      approve,
      extensionMailInput(view, publicUrl, view.recipient, dates),
    )
    const answered = {
      userId: view.recipient.id,
      kind: 'extension_answered',
      subject: `extension:${extension.id}`,
      mail: holderMail,
    } as const
    await enqueueJobs(tx, [
      ...(await personalNoticeJobs(tx, [answered], {
        now,
        organizationId: locked.organizationId,
        publicUrl,
      })),
      ...(approve ? reminderJobs(moved, timeZone, now) : []),
    ])
    await appendEvent(tx, {
      organizationId: locked.organizationId,
      kind: approve ? 'transfer.extended' : 'transfer.extension_refused',
      actorId: input.actor.id,
      serverTime: now,
      keychainIds: [locked.keychainId],
      transferIds: [locked.id],
      payload: dates,
    })
    return true
  })
  if (changed) deps.jobs.nudge()
  const view = await findTransferRow(db, input.transferId)
  // Stryker disable next-line all: the transfer was just read
  if (!view) throw notFound('No such transfer.')
  return toTransfer(db, view, input.actor.id, now, publicUrl)
}
