import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import type { Transfer, TransferStatus } from '../../../contract/transfers.ts'
import type { BadgeTone } from '../../ui/Badge.tsx'

/** A transfer's status on a member's page (the same words as the transfer list). */
export const MEMBER_TRANSFER_STATUS: Record<TransferStatus, MessageDescriptor> = {
  SCHEDULED: msg`Scheduled`,
  TRANSFERRED: msg`Transferred`,
  RETURNING: msg`Returning`,
  RETURNED: msg`Returned`,
  CANCELLED: msg`Cancelled`,
}

export function memberTransferTone(transfer: Pick<Transfer, 'status' | 'expired'>): BadgeTone {
  if (transfer.expired) return 'danger'
  if (transfer.status === 'TRANSFERRED' || transfer.status === 'RETURNING') return 'warning'
  if (transfer.status === 'SCHEDULED') return 'brand'
  return 'neutral'
}
