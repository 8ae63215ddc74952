import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import type { EventKind } from '../../../contract/events.ts'

/** What each kind of ledger entry says happened. */
export const EVENT_KIND_LABELS: Record<EventKind, MessageDescriptor> = {
  'keychain.created': msg`Keychain created`,
  'keychain.updated': msg`Keychain changed`,
  'keychain.deleted': msg`Keychain deleted`,
  'keychain.restored': msg`Keychain restored`,
  'key.added': msg`Key added`,
  'key.renamed': msg`Key renamed`,
  'key.removed': msg`Key removed`,
  'keychains.imported': msg`Keychains imported`,
  'tags.created': msg`Tags created`,
  'tag.lost_declared': msg`Tag declared lost`,
  'tag.lost_undone': msg`Tag found again`,
  'tag.replaced': msg`Tag reprinted as a replacement`,
  'scan.recorded': msg`Tag scanned`,
  'transfer.authorized': msg`Transfer authorized`,
  'transfer.cancelled': msg`Transfer cancelled`,
  'transfer.picked_up': msg`Picked up`,
  'transfer.returned': msg`Returned`,
  'transfer.extension_requested': msg`More time asked`,
  'transfer.extended': msg`More time granted`,
  'transfer.extension_refused': msg`More time refused`,
  'transfer.receipt_signed': msg`Handover receipt signed`,
  'member.invited': msg`Member invited`,
  'member.changed': msg`Member changed`,
  'found_report.received': msg`Found keys reported`,
  'found_report.status_changed': msg`Found-keys report moved`,
  'found_report.replied': msg`Reply sent to a finder`,
  'place.created': msg`Place created`,
  'place.changed': msg`Place changed`,
  'place.deleted': msg`Place deleted`,
  'hooks.created': msg`Hooks added`,
  'hook.removed': msg`Hook removed`,
  'keychain.home_changed': msg`Home hook changed`,
  'keychain.hung': msg`Put back on a hook`,
  'stocktake.started': msg`Stocktake started`,
  'stocktake.closed': msg`Stocktake closed`,
  'keychain.handed_over': msg`Handed over from phone to phone`,
  'handover.refused': msg`Handover refused`,
}

/** A found-keys report's status, as an entry of the ledger names it (the status it left and the one it took). */
export const FOUND_REPORT_STATUS_LABELS: Record<string, MessageDescriptor> = {
  NEW: msg({ message: 'new', context: 'found-keys report status' }),
  CONTACTED: msg({ message: 'finder contacted', context: 'found-keys report status' }),
  RESOLVED: msg({ message: 'resolved', context: 'found-keys report status' }),
}

/** Why the server refused a genuinely signed handover (the refusals it records; any other shows as its code). */
export const HANDOVER_REFUSAL_LABELS: Record<string, MessageDescriptor> = {
  keychain_gone: msg`the keychain is no longer the organization’s`,
  not_custodian: msg`the giver did not hold it`,
  conflict: msg`it had changed hands in the meantime`,
  receiver_not_allowed: msg`the organization does not allow this receiver`,
  on_transfer: msg`it is out on a transfer`,
}
