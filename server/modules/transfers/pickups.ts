import { eq } from 'drizzle-orm'
import { TRANSFER_CUSTODY_REASONS } from '../../../contract/keychains.ts'
import type { Role } from '../../../contract/permissions.ts'
import { pickupDecision } from '../../../contract/transfer-state.ts'
import { judgedTime } from '../../../contract/transfers.ts'
import type { Db } from '../../db/client.ts'
import { keychains, type TransferRow, transferPickups, transfers, type UserRow } from '../../db/schema.ts'
import { notFound } from '../../http/errors.ts'
import { enqueueJobs } from '../../jobs/queue.ts'
import { OFF_THE_HOOK } from '../../shared/places.ts'
import {
  findTransferRow,
  keychainOutFor,
  outTransfersOf,
  type TransferViewRow,
} from '../../shared/transfer-view.ts'
import { appendEvent } from '../events/append.ts'
import { appendCustody } from '../keychains/custody.ts'
import { isCustodianCandidate } from '../members/service.ts'
import { noticeJob } from '../notices/job.ts'
import { type CheckedAcceptance, recordReceipt } from '../receipts/service.ts'
import { pickupRefused } from './errors.ts'
import { lockVisibleTransfer } from './service.ts'

/** A field action on a transfer (a pickup, a request for more time), as the route reads it. */
export type PickupInput = {
  caller: UserRow
  transferId: string
  /** When the device says it happened (X-Client-Time), else null. Judged only from the queue (`judgedTime`). */
  clientTime: Date | null
  /** `X-From-Queue: 1`: replayed from the device's offline queue. */
  fromQueue: boolean
  now: Date
  /** The recipient's acceptance sent with a first pickup: stored as its receipt (a return ignores it). */
  acceptance?: CheckedAcceptance | null
}

/**
 * `POST /transfers/{id}/pickups`, inside the idempotent transaction: the transfer row is locked, so of two
 * pickups racing on one transfer the second sees the first's move (and is refused 409). The caller must see
 * the transfer (else 404); `pickupDecision` says what happens:
 * - PICKUP: TRANSFERRED, the recipient becomes the custodian, the previous custodian is kept on the transfer;
 * - RETURN: RETURNED, custody goes back to that previous custodian (nobody if they are no longer a member);
 * each move is logged in the custody log and recorded as a pickup row. Gives the transfer's row after the move
 * (the route answers it with `toTransfer`), and the caller's role in the transfer's organization.
 * The rules judge at `judgedTime(now, clientTime, fromQueue)` (the device's time of a queued pickup within the
 * tolerance, else the server's); that instant is also the custody entry's `at` and the transfer's
 * `pickedUpAt`/`returnedAt`. The pickup row keeps both times; the answer's status is computed at `now`.
 */
export async function recordPickup(
  tx: Db,
  input: PickupInput,
): Promise<{ view: TransferViewRow; role: Role | null }> {
  const { caller, now } = input
  const { locked, view, role } = await lockVisibleTransfer(tx, input.transferId, caller.id)
  // The keychain is locked before the rules read its other transfers: custody moves one at a time.
  const [keychain] = await tx
    .select()
    .from(keychains)
    .where(eq(keychains.id, locked.keychainId))
    .for('update')
  const judgedAt = judgedTime(now, input.clientTime, input.fromQueue)
  const out = locked.status === 'SCHEDULED' ? await outTransfersOf(tx, [locked.keychainId]) : new Map()
  const decision = pickupDecision(locked, { userId: caller.id, role }, judgedAt, keychainOutFor(out, locked))
  if (decision.next === null) {
    throw pickupRefused(caller.locale, decision.refusal, {
      fromDate: locked.fromDate,
      toDate: locked.toDate,
      organizationName: view.organization.name,
    })
  }
  // (A keychain with an open transfer cannot be deleted: this is a safety net.)
  // Stryker disable next-line all: the transfer's keychain exists (a foreign key), and is locked
  if (!keychain) throw notFound('No such keychain.')
  const { from, to, at, change } =
    decision.next === 'PICKUP'
      ? pickUp(locked, keychain.custodianId, judgedAt)
      : await giveBack(tx, locked, keychain.custodianId, judgedAt)
  if (from !== to) {
    // Taken by someone (the recipient, or back to its custodian): off its hook.
    const taken = to || decision.next === 'PICKUP' ? OFF_THE_HOOK : {}
    await tx
      .update(keychains)
      .set({ custodianId: to, updatedAt: now, ...taken })
      .where(eq(keychains.id, keychain.id))
    await appendCustody(tx, {
      keychainId: keychain.id,
      byUserId: caller.id,
      fromUserId: from,
      toUserId: to,
      reason: TRANSFER_CUSTODY_REASONS[decision.next],
      // When it happened (as far as the device is believed); the log is ordered by insertion, not by `at`.
      at,
    })
  }
  await tx.update(transfers).set(change).where(eq(transfers.id, locked.id))
  const [pickupRow] = await tx
    .insert(transferPickups)
    .values({
      transferId: locked.id,
      kind: decision.next,
      byUserId: caller.id,
      clientTime: input.clientTime,
      serverTime: now,
      fromQueue: input.fromQueue,
    })
    .returning({ id: transferPickups.id })
  if (decision.next === 'PICKUP' && input.acceptance && pickupRow) {
    await recordReceipt(tx, {
      view,
      pickupId: pickupRow.id,
      previousCustodianId: from,
      acceptance: input.acceptance,
      acceptedAt: at,
      clientTime: input.clientTime,
      fromQueue: input.fromQueue,
      now,
    })
  }
  const kind = decision.next === 'PICKUP' ? 'transfer.picked_up' : 'transfer.returned'
  await enqueueJobs(tx, [
    noticeJob(
      { kind, transferId: locked.id, actorId: caller.id, at: judgedAt.toISOString() },
      { now, organizationId: locked.organizationId },
    ),
  ])
  await appendEvent(tx, {
    organizationId: locked.organizationId,
    kind,
    actorId: caller.id,
    serverTime: now,
    clientTime: input.clientTime,
    fromQueue: input.fromQueue,
    keychainIds: [locked.keychainId],
    transferIds: [locked.id],
    payload: { custodian: { from, to } },
  })
  const moved = await findTransferRow(tx, locked.id)
  // Stryker disable next-line all: the transfer was locked and updated in this transaction
  if (!moved) throw notFound('No such transfer.')
  return { view: moved, role }
}

/** Custody from → to, dated `at`, and the transfer's change. */
type Move = { from: string | null; to: string | null; at: Date; change: Partial<TransferRow> }

function pickUp(transfer: TransferRow, custodianId: string | null, at: Date): Move {
  return {
    from: custodianId,
    to: transfer.recipientId,
    at,
    change: { status: 'TRANSFERRED', previousCustodianId: custodianId, pickedUpAt: at },
  }
}

async function giveBack(tx: Db, transfer: TransferRow, custodianId: string | null, at: Date): Promise<Move> {
  const previous = transfer.previousCustodianId
  const back =
    previous && (await isCustodianCandidate(tx, transfer.organizationId, previous)) ? previous : null
  // Two devices' clocks may disagree: a return is never dated before its pickup.
  const returnedAt = transfer.pickedUpAt && transfer.pickedUpAt > at ? transfer.pickedUpAt : at
  return { from: custodianId, to: back, at: returnedAt, change: { status: 'RETURNED', returnedAt } }
}
