import { describe, expect, it } from 'vitest'
import { HANDOVER_REFUSALS } from '../../../contract/handover-check.ts'
import { handoverRefused } from './refusals.ts'

// What a reader of the API is told for each refusal (the app says it in the reader's language from `reason`).
const MESSAGES = {
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

describe('handover refusals', () => {
  it('answer 409 handover_refused with the reason and a sentence that says it', () => {
    expect(Object.keys(MESSAGES).sort()).toEqual([...HANDOVER_REFUSALS].sort())
    for (const reason of HANDOVER_REFUSALS) {
      const error = handoverRefused(reason)
      expect(error.status).toBe(409)
      expect(error.code).toBe('handover_refused')
      expect(error.message, reason).toBe(MESSAGES[reason])
      expect(error.fields).toEqual({ reason })
    }
  })
})
