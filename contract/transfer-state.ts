import type { Role } from './permissions.ts'
import { type PickupKind, type PickupRefusal, RETURN_GRACE_MS, type TransferStatus } from './transfers.ts'

/**
 * The one place a transfer's computed state is decided, from its stored state, an instant and the caller: the
 * status (RETURNING is TRANSFERRED from `endsAt` on), `expired`, `expiresAt`, what a pickup would do now
 * (`next`) or why not (`refusal`), and which of a keychain's transfers concerns a caller at a scan. Pure and
 * shared: the server decides with it (its lists have the same rules as SQL, `statusWhere` and `expiredWhere`,
 * held together by tests), and the field mode resolves a scan offline with it, from the mirror.
 */

/** What is stored: RETURNING is never stored, it is TRANSFERRED past `endsAt`. */
export const STORED_TRANSFER_STATUSES = ['SCHEDULED', 'TRANSFERRED', 'RETURNED', 'CANCELLED'] as const
export type StoredTransferStatus = (typeof STORED_TRANSFER_STATUSES)[number]

export type TransferState = {
  status: StoredTransferStatus
  startsAt: Date
  endsAt: Date
  recipientId: string
}

/** Who asks: their id and their role in the transfer's organization (null: not a member, or DISABLED). */
export type TransferCaller = { userId: string; role: Role | null }

export function transferStatus(row: Pick<TransferState, 'status' | 'endsAt'>, now: Date): TransferStatus {
  if (row.status === 'TRANSFERRED' && now.getTime() >= row.endsAt.getTime()) return 'RETURNING'
  return row.status
}

/** SCHEDULED past `endsAt` (never picked up), or RETURNING more than `RETURN_GRACE_MS` past it (overdue). */
export function isExpired(row: Pick<TransferState, 'status' | 'endsAt'>, now: Date): boolean {
  const end = row.endsAt.getTime()
  if (row.status === 'SCHEDULED') return now.getTime() >= end
  if (row.status === 'TRANSFERRED') return now.getTime() >= end + RETURN_GRACE_MS
  return false
}

/** When it expires (or expired): SCHEDULED at `endsAt`, out ones a grace later; null once over. */
export function expiresAt(row: Pick<TransferState, 'status' | 'endsAt'>): Date | null {
  if (row.status === 'SCHEDULED') return row.endsAt
  if (row.status === 'TRANSFERRED') return new Date(row.endsAt.getTime() + RETURN_GRACE_MS)
  return null
}

/** Open: still concerns its keychain and its recipient (SCHEDULED not expired, TRANSFERRED, RETURNING). */
export function isOpen(row: Pick<TransferState, 'status' | 'endsAt'>, now: Date): boolean {
  if (row.status === 'TRANSFERRED') return true
  return row.status === 'SCHEDULED' && !isExpired(row, now)
}

/** Roles that confirm a return (at the organization's address). */
const RETURNING_ROLES: readonly Role[] = ['ADMIN', 'MANAGER', 'MEMBER']

export type PickupDecision = { next: PickupKind; refusal: null } | { next: null; refusal: PickupRefusal }

/**
 * What `POST /transfers/{id}/pickups` does for this caller at `at`: the server's time, or for a pickup replayed
 * from the offline queue the device's within the tolerance (`judgedTime` in `contract/transfers.ts`); only the
 * window rules read it (`Transfer.next`/`refusal` pass the server's time):
 * - SCHEDULED: the recipient only (`not_recipient`), inside `[startsAt, endsAt)` (`before_window`,
 *   `window_closed`), and no other transfer of the keychain out (`keychain_out`) → PICKUP;
 * - TRANSFERRED or RETURNING (overdue or not): a MEMBER, MANAGER or ADMIN of the organization (`not_member`,
 *   e.g. the CONTACT recipient) other than the recipient (`own_return`: someone receives the keychain, and a
 *   member recipient's double tap on "pick up" can never become a return) → RETURN;
 * - RETURNED: `already_returned`; CANCELLED: `cancelled`.
 * `keychainOut`: another transfer of the same keychain is TRANSFERRED (picked up, not returned).
 */
export function pickupDecision(
  row: TransferState,
  caller: TransferCaller,
  at: Date,
  keychainOut: boolean,
): PickupDecision {
  const refuse = (refusal: PickupRefusal): PickupDecision => ({ next: null, refusal })
  switch (row.status) {
    case 'CANCELLED':
      return refuse('cancelled')
    case 'RETURNED':
      return refuse('already_returned')
    case 'TRANSFERRED':
      if (caller.userId === row.recipientId && caller.role !== 'CONTACT' && caller.role !== null)
        return refuse('own_return')
      return caller.role && RETURNING_ROLES.includes(caller.role)
        ? { next: 'RETURN', refusal: null }
        : refuse('not_member')
    case 'SCHEDULED':
      if (caller.userId !== row.recipientId) return refuse('not_recipient')
      if (at.getTime() < row.startsAt.getTime()) return refuse('before_window')
      if (at.getTime() >= row.endsAt.getTime()) return refuse('window_closed')
      if (keychainOut) return refuse('keychain_out')
      return { next: 'PICKUP', refusal: null }
  }
}

/** Inside the pickup window `[startsAt, endsAt)`. */
export const inWindow = (row: Pick<TransferState, 'startsAt' | 'endsAt'>, at: Date) =>
  row.startsAt.getTime() <= at.getTime() && at.getTime() < row.endsAt.getTime()

/**
 * The keychain's transfer that concerns `userId` at a scan, among its open ones (`isOpen`) the caller may see:
 * the one out, else the caller's own SCHEDULED one whose window is open, else the next SCHEDULED one (earliest
 * window); undefined when none. `stateOf` reads each one's stored state.
 */
export function concerningTransfer<T>(
  open: readonly T[],
  stateOf: (transfer: T) => TransferState,
  userId: string,
  now: Date,
): T | undefined {
  const scheduled = open
    .filter((each) => stateOf(each).status === 'SCHEDULED')
    .sort((a, b) => stateOf(a).startsAt.getTime() - stateOf(b).startsAt.getTime())
  return (
    open.find((each) => stateOf(each).status === 'TRANSFERRED') ??
    scheduled.find((each) => stateOf(each).recipientId === userId && inWindow(stateOf(each), now)) ??
    scheduled[0]
  )
}
