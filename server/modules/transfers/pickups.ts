import { eq } from 'drizzle-orm'
import { TRANSFER_CUSTODY_REASONS } from '../../../contract/keychains.ts'
import type { Transfer } from '../../../contract/transfers.ts'
import type { Db } from '../../db/client.ts'
import { keychains, type TransferRow, transferPickups, transfers, type UserRow } from '../../db/schema.ts'
import { notFound } from '../../http/errors.ts'
import { appendCustody } from '../keychains/custody.ts'
import { isCustodianCandidate } from '../members/service.ts'
import { memberRole } from '../organizations/roles.ts'
import { pickupRefused } from './errors.ts'
import { canSeeTransfer } from './service.ts'
import { pickupDecision } from './status.ts'
import { findTransferRow, keychainOutFor, outTransfersOf, toTransfer } from './view.ts'

export type PickupInput = {
  caller: UserRow
  transferId: string
  /** When the device says it happened (X-Client-Time), else null: recorded, not judged yet. */
  clientTime: Date | null
  fromQueue: boolean
  now: Date
}

/**
 * `POST /transfers/{id}/pickups`, inside the idempotent transaction: the transfer row is locked, so of two
 * pickups racing on one transfer the second sees the first's move (and is refused 409). The caller must see
 * the transfer (else 404); `pickupDecision` says what happens:
 * - PICKUP: TRANSFERRED, the recipient becomes the custodian, the previous custodian is kept on the transfer;
 * - RETURN: RETURNED, custody goes back to that previous custodian (nobody if they are no longer a member);
 * each move is logged in the custody log and recorded as a pickup row. Answers the transfer after the move.
 */
export async function recordPickup(tx: Db, input: PickupInput): Promise<Transfer> {
  const { caller, now } = input
  const [locked] = await tx.select().from(transfers).where(eq(transfers.id, input.transferId)).for('update')
  const view = locked ? await findTransferRow(tx, locked.id) : null
  if (!locked || !view || !(await canSeeTransfer(tx, view, caller.id))) throw notFound('No such transfer.')
  // The keychain is locked before the rules read its other transfers: custody moves one at a time.
  const [keychain] = await tx
    .select()
    .from(keychains)
    .where(eq(keychains.id, locked.keychainId))
    .for('update')
  // The time the rules judge by: the server's for now (the device's `clientTime` may count here later).
  const judgedAt = now
  const role = await memberRole(tx, caller.id, locked.organizationId)
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
  if (!keychain) throw notFound('No such keychain.')
  const { from, to, change } =
    decision.next === 'PICKUP'
      ? pickUp(locked, keychain.custodianId, now)
      : await giveBack(tx, locked, keychain.custodianId, now)
  if (from !== to) {
    await tx.update(keychains).set({ custodianId: to, updatedAt: now }).where(eq(keychains.id, keychain.id))
    await appendCustody(tx, {
      keychainId: keychain.id,
      byUserId: caller.id,
      fromUserId: from,
      toUserId: to,
      reason: TRANSFER_CUSTODY_REASONS[decision.next],
      at: now,
    })
  }
  await tx.update(transfers).set(change).where(eq(transfers.id, locked.id))
  await tx.insert(transferPickups).values({
    transferId: locked.id,
    kind: decision.next,
    byUserId: caller.id,
    clientTime: input.clientTime,
    serverTime: now,
    fromQueue: input.fromQueue,
  })
  const moved = await findTransferRow(tx, locked.id)
  if (!moved) throw notFound('No such transfer.')
  return toTransfer(tx, moved, caller.id, now)
}

type Move = { from: string | null; to: string | null; change: Partial<TransferRow> }

function pickUp(transfer: TransferRow, custodianId: string | null, now: Date): Move {
  return {
    from: custodianId,
    to: transfer.recipientId,
    change: { status: 'TRANSFERRED', previousCustodianId: custodianId, pickedUpAt: now },
  }
}

async function giveBack(tx: Db, transfer: TransferRow, custodianId: string | null, now: Date): Promise<Move> {
  const previous = transfer.previousCustodianId
  const back =
    previous && (await isCustodianCandidate(tx, transfer.organizationId, previous)) ? previous : null
  return { from: custodianId, to: back, change: { status: 'RETURNED', returnedAt: now } }
}
