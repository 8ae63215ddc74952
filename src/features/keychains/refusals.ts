import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { refusedWith } from '../../lib/api.ts'

const outOnTransfer = msg`This keychain is out on a transfer: its custodian changes when it is returned.`
const deletionRefused = msg`This keychain has an active transfer: cancel it, or wait for it to come back, before deleting it.`

/** Why changing the custodian failed, in the reader's words. */
export function custodianChangeProblem(error: unknown, fallback: MessageDescriptor): MessageDescriptor {
  return refusedWith(error, 409) ? outOnTransfer : fallback
}

/** Why deleting failed: the only refusal (409) is a transfer in progress. */
export function deletionProblem(error: unknown, fallback: MessageDescriptor): MessageDescriptor {
  return refusedWith(error, 409) ? deletionRefused : fallback
}

const restoreRefused = msg`One of its tags is now on another key: remove it there, then restore the keychain.`

/** Why a restore failed: the only refusal (409) is a tag taken by another key meanwhile. */
export function restoreProblem(error: unknown, fallback: MessageDescriptor): MessageDescriptor {
  return refusedWith(error, 409) ? restoreRefused : fallback
}
