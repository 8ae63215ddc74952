import type { Person } from '../../../contract/person.ts'
import type { ScanResult } from '../../../contract/scans.ts'
import type { Transfer } from '../../../contract/transfers.ts'

type Resolved = Extract<ScanResult, { status: 'resolved' }>

/**
 * The one line a scan card states about a keychain, from the server's answer (or the device's copy) and the move
 * just confirmed on the card (`moved`). Calendar days are `YYYY-MM-DD`, `since` an instant.
 * - `untagged`: the tag is on no key yet;
 * - `returned`: a return was just confirmed here: custody is back with the organization;
 * - `mine`: the caller holds it (with the day it is due back when it is out on a transfer);
 * - `held`: someone else holds it, told only to a caller who may see the holder;
 * - `booked`: the caller may not see the holder, and the transfer waiting is theirs: when they pick it up;
 * - `free`: nobody holds it;
 * - null: nothing the caller may be told (never "nobody" to someone who may not see the holder).
 */
export type Truth =
  | { kind: 'untagged' }
  | { kind: 'returned' }
  | { kind: 'free' }
  | { kind: 'mine'; due: string | null; overdue: boolean }
  | { kind: 'held'; person: Person; since: string | null; due: string | null; overdue: boolean }
  | { kind: 'booked'; from: string; to: string }
  | null

const isOut = (transfer: Transfer) => transfer.status === 'TRANSFERRED' || transfer.status === 'RETURNING'

/** When the keychain went out on this transfer: its last pickup (a queued one has none yet). */
function pickedUpAt(transfer: Transfer): string | null {
  const pickup = transfer.pickups.findLast((each) => each.kind === 'PICKUP')
  return pickup ? (pickup.clientTime ?? pickup.serverTime) : null
}

export function scanTruth(result: Resolved, moved: Transfer | null, viewerId: string): Truth {
  const { keychain } = result
  if (!keychain) return { kind: 'untagged' }
  if (moved?.status === 'RETURNED') return { kind: 'returned' }
  const canSee = result.actions.includes('read__keychain')
  const transfer = moved ?? result.transfer
  if (transfer && isOut(transfer)) {
    const { recipient, toDate, expired } = transfer
    if (recipient.id === viewerId) return { kind: 'mine', due: toDate, overdue: expired }
    return canSee
      ? { kind: 'held', person: recipient, since: pickedUpAt(transfer), due: toDate, overdue: expired }
      : null
  }
  if (!canSee) {
    return transfer?.status === 'SCHEDULED' && transfer.recipient.id === viewerId
      ? { kind: 'booked', from: transfer.fromDate, to: transfer.toDate }
      : null
  }
  const { custodian } = keychain
  if (!custodian) return { kind: 'free' }
  if (custodian.id === viewerId) return { kind: 'mine', due: null, overdue: false }
  return { kind: 'held', person: custodian, since: null, due: null, overdue: false }
}
