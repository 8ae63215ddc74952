import { ErrorCode } from '../../../contract/errors.ts'
import type { Handover } from '../../../contract/handover.ts'
import type { HandoverRefusal } from '../../../contract/handover-check.ts'
import { ApiError } from '../../http/errors.ts'

/** What each refusal means, for a reader of the API (the app says it in the reader's language from `reason`). */
const MESSAGES: Record<HandoverRefusal, string> = {
  malformed: 'This is not a handover offer and its acceptance, or a character of them was changed.',
  not_for_this_offer: 'This acceptance is of another offer, or from another device than the offer names.',
  unknown_device: 'A device of this handover is not registered: it must go online once first.',
  wrong_device: 'A device of this handover is registered to someone other than the person the offer names.',
  bad_signature: 'A signature of this handover does not match its code.',
  device_revoked: 'A device of this handover was revoked before the offer was made.',
  key_expired: 'The key of a device of this handover had expired when the offer was made.',
  same_person: 'The giver and the receiver are the same person.',
  clock_ahead: 'The offer is dated ahead of the server’s clock: check the giver’s phone time.',
  expired: 'The offer is more than 30 days old: the handover is no longer taken.',
  keychain_gone: 'The keychain is no longer in the organization.',
  not_custodian: 'The giver did not hold the keychain when the offer was made.',
  conflict: 'The keychain changed hands after the offer was made: another handover came first.',
  receiver_not_allowed: 'The organization does not let this person be handed keychains.',
  on_transfer: 'The keychain is out on a transfer: it goes back through its transfer.',
}

/** 409 `handover_refused` with its reason, and the handover when the server keeps the refusal. */
export const handoverRefused = (reason: HandoverRefusal, handover?: Handover) =>
  new ApiError(409, ErrorCode.handoverRefused, MESSAGES[reason], {
    fields: { reason, ...(handover ? { handover } : {}) },
  })
