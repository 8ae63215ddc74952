import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import type { PickupKind, PickupRefusal, Transfer, TransferStatus } from '../../../contract/transfers.ts'
import type { BadgeTone } from '../../ui/Badge.tsx'

export const TRANSFER_STATUS_LABELS: Record<TransferStatus, MessageDescriptor> = {
  SCHEDULED: msg`Scheduled`,
  TRANSFERRED: msg`Transferred`,
  RETURNING: msg`Returning`,
  RETURNED: msg`Returned`,
  CANCELLED: msg`Cancelled`,
}

export const PICKUP_KIND_LABELS: Record<PickupKind, MessageDescriptor> = {
  PICKUP: msg`Picked up`,
  RETURN: msg`Returned`,
}

/** Why the caller cannot confirm a pickup or return now, in words for them. */
export const REFUSAL_LABELS: Record<PickupRefusal, MessageDescriptor> = {
  not_recipient: msg`Only the recipient can pick up this keychain.`,
  not_member: msg`The return is confirmed by a member of the organization, at its address.`,
  own_return: msg`Someone else at the organization confirms the return when you bring the keychain back.`,
  before_window: msg`The pickup window has not opened yet.`,
  window_closed: msg`The pickup window has closed: this transfer expired.`,
  cancelled: msg`This transfer was cancelled.`,
  already_returned: msg`This keychain has already been returned.`,
  keychain_out: msg`The keychain is still out with someone else.`,
}

export function statusTone(transfer: Pick<Transfer, 'status' | 'expired'>): BadgeTone {
  if (transfer.expired) return 'danger'
  switch (transfer.status) {
    case 'SCHEDULED':
      return 'brand'
    case 'TRANSFERRED':
      return 'success'
    case 'RETURNING':
      return 'warning'
    default:
      return 'neutral'
  }
}
