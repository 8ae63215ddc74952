import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import type { KeyType } from '../../../contract/keychains.ts'
import type { TransferStatus } from '../../../contract/transfers.ts'

export const TRANSFER_STATUS_LABELS: Record<TransferStatus, MessageDescriptor> = {
  SCHEDULED: msg`Scheduled`,
  TRANSFERRED: msg`Transferred`,
  RETURNING: msg`Returning`,
  RETURNED: msg`Returned`,
  CANCELLED: msg`Cancelled`,
}

export const KEY_TYPE_LABELS: Record<KeyType, MessageDescriptor> = {
  TAG: msg`Tag`,
  KEY: msg`Key`,
}
