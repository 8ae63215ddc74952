/**
 * What an organization's event log records: one kind per write that changes what the organization holds.
 * The field mirror's change feed reads which ids each event touched; the activity log reads the kinds.
 */
export const EVENT_KINDS = [
  'keychain.created',
  'keychain.updated',
  'keychain.deleted',
  /** A soft-deleted keychain brought back, with its keys and the tags they had. */
  'keychain.restored',
  'key.added',
  'key.renamed',
  'key.removed',
  /** One entry for a CSV import: every keychain and tag it made or attached, with the counts. */
  'keychains.imported',
  'tags.created',
  /** A tag declared lost, found again (undone), or reprinted with its code on a new QR (a replacement paid). */
  'tag.lost_declared',
  'tag.lost_undone',
  'tag.replaced',
  'scan.recorded',
  'transfer.authorized',
  'transfer.cancelled',
  'transfer.picked_up',
  'transfer.returned',
  'transfer.extension_requested',
  'transfer.extended',
  'transfer.extension_refused',
  'transfer.receipt_signed',
  'member.invited',
  'member.changed',
  'found_report.received',
  'found_report.status_changed',
  'found_report.replied',
  /** Places and hooks: the tree changed, hooks added or removed. */
  'place.created',
  'place.changed',
  'place.deleted',
  'hooks.created',
  'hook.removed',
  /** A keychain's home hook set, changed or cleared. */
  'keychain.home_changed',
  /** A keychain put on a hook after its return (its home, or another: misplaced). */
  'keychain.hung',
  'stocktake.started',
  /** The result: counts, the missing and misplaced keychains' ids. */
  'stocktake.closed',
  /** Handed from phone to phone, offline: the payload holds the handover's id and both signed codes. */
  'keychain.handed_over',
  /** A signed handover the server did not apply (another came first…): its reason and both codes. */
  'handover.refused',
] as const
export type EventKind = (typeof EVENT_KINDS)[number]

/** Kinds the activity log shows that change nothing the field mirror holds: its change feed skips them. */
export const LOG_ONLY_KINDS: ReadonlySet<EventKind> = new Set<EventKind>([
  'scan.recorded',
  'place.created',
  'place.changed',
  'place.deleted',
  'hooks.created',
  'hook.removed',
  'stocktake.started',
  'stocktake.closed',
  'handover.refused',
])
