import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import type { LocalRefusal } from '../../offline/handover.ts'

/** Why a handover was refused (by this phone, or by the server later), and what the people involved do next. */
export type RefusalText = { what: MessageDescriptor; todo: MessageDescriptor }

const askManager = msg`Whoever has the keys in hand: ask a manager to record who holds the keychain now.`
const startAgain = msg`Start the handover again from the beginning.`

/** Every reason a phone or the server gives, in the reader's words. */
export const REFUSAL_TEXTS: Record<LocalRefusal, RefusalText> = {
  malformed: {
    what: msg`This code is not a handover code, or it was changed since it was made.`,
    todo: msg`Scan the code on the other phone again.`,
  },
  not_for_this_offer: {
    what: msg`This acceptance answers another offer than the one this phone showed.`,
    todo: msg`Let the receiver scan the offer shown here, then scan the acceptance their phone shows.`,
  },
  unknown_device: {
    what: msg`This phone does not know the other phone's key yet.`,
    todo: msg`Both phones need to sync once with the network before a handover without it. Then start again.`,
  },
  wrong_device: {
    what: msg`The other phone is registered to someone else than the person it names.`,
    todo: msg`Each person uses their own phone, signed in to their own account. Then start again.`,
  },
  bad_signature: {
    what: msg`The signature does not match: the code was altered, or made by another phone.`,
    todo: msg`Start the handover again; if it happens again, tell a manager.`,
  },
  device_revoked: {
    what: msg`One of the phones was revoked: it may no longer sign handovers.`,
    todo: msg`Use another phone, or sign in again on this one with the network so that it gets a new key.`,
  },
  key_expired: {
    what: msg`One of the phones' signing key has expired.`,
    todo: msg`Connect that phone to the network once so that it registers a new key, then start again.`,
  },
  same_person: {
    what: msg`You cannot hand a keychain over to yourself.`,
    todo: msg`Scan the receive code on the phone of the person you give it to.`,
  },
  clock_ahead: {
    what: msg`The giver's phone was set to a time ahead of the real one.`,
    todo: msg`Set the phone's date and time to automatic, then hand the keychain over again.`,
  },
  expired: {
    what: msg`The handover reached the server more than 30 days after it was made.`,
    todo: askManager,
  },
  keychain_gone: {
    what: msg`This keychain was deleted, or it is not your organization's.`,
    todo: msg`Ask a manager what to do with the keys.`,
  },
  not_custodian: {
    what: msg`The giver did not hold this keychain when handing it over.`,
    todo: askManager,
  },
  conflict: {
    what: msg`Someone else was handed this keychain first: it changed hands after the last change the giver's phone knew of.`,
    todo: askManager,
  },
  receiver_not_allowed: {
    what: msg`Your organization does not allow handing keys over to this person.`,
    todo: msg`Give the keychain back through the office, or ask an admin about who may receive handovers.`,
  },
  on_transfer: {
    what: msg`This keychain is out on a transfer: it goes back through its transfer, not from hand to hand.`,
    todo: msg`Confirm its return by scanning its tag first, or ask a manager.`,
  },
  not_a_receive_code: {
    what: msg`This is not a receive code.`,
    todo: msg`Scan the code the receiver's phone shows under “Receive a keychain”, or type it (R-…).`,
  },
  device_not_ready: {
    what: msg`This phone cannot sign handovers yet: its key is not registered.`,
    todo: msg`Connect it to the network once, then try again.`,
  },
  not_for_this_device: {
    what: msg`This offer was made for another phone, or for an older receive code.`,
    todo: msg`Let the giver scan the receive code shown here, then scan their new offer.`,
  },
  no_pending_offer: {
    what: msg`This phone has no offer waiting for this acceptance.`,
    todo: startAgain,
  },
  not_holder: {
    what: msg`As far as this phone knows, you do not hold this keychain.`,
    todo: msg`Only the person who holds a keychain can hand it over. Sync the phone if you just received it.`,
  },
  keychain_unknown: {
    what: msg`This keychain is not in this phone's copy of the organization.`,
    todo: msg`Sync this phone once with the network, then scan the offer again.`,
  },
}
