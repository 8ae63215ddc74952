import { SCAN_ACTIONS, type ScanResult } from '../../contract/scans.ts'
import { concerningTransfer, inWindow, isOpen, type TransferState } from '../../contract/transfer-state.ts'
import type { Transfer } from '../../contract/transfers.ts'
import { withDb } from './db.ts'
import { mirroredTag, plainTag } from './mirror.ts'

/** A mirrored transfer's stored state, as the shared rules read it (RETURNING is stored as TRANSFERRED). */
const stateOf = (transfer: Transfer): TransferState => ({
  status: transfer.status === 'RETURNING' ? 'TRANSFERRED' : transfer.status,
  startsAt: new Date(transfer.startsAt),
  endsAt: new Date(transfer.endsAt),
  recipientId: transfer.recipient.id,
})

const isOpenAt = (transfer: Transfer, now: Date) => isOpen(stateOf(transfer), now)

/**
 * The transfer of a keychain that concerns `userId`, picked as the server picks it (`concerningTransfer`).
 * `next` is checked against `now` (the device's clock): a pickup offline is offered only inside the window the
 * mirror knows.
 */
function concerning(transfers: Transfer[], userId: string, now: Date): Transfer | null {
  const open = (each: Transfer) => inWindow(stateOf(each), now)
  const found =
    concerningTransfer(
      transfers.filter((each) => isOpenAt(each, now)),
      stateOf,
      userId,
      now,
    ) ?? null
  // Mirrored before its window opened, the recipient's own transfer is offered once the window is open.
  if (found?.status === 'SCHEDULED' && found.recipient.id === userId && open(found))
    return { ...found, next: 'PICKUP', refusal: null }
  if (found?.next !== 'PICKUP' || open(found)) return found
  return { ...found, next: null, refusal: now < new Date(found.startsAt) ? 'before_window' : 'window_closed' }
}

/**
 * What a scan resolves to from the mirror, as the server would answer it (same screen online and offline):
 * `unknown` when the mirror does not know the tag.
 */
export async function resolveScanOffline(input: {
  organizationId: string
  userId: string
  value: string
  scanId: string
  permissions: readonly string[]
  now?: Date
}): Promise<ScanResult> {
  const now = input.now ?? new Date()
  const tag = await mirroredTag(input.organizationId, input.value)
  if (!tag) return { status: 'unknown', scanId: input.scanId, value: input.value }
  const keychainId = tag.key?.keychainId ?? null
  const [row, transfers] = keychainId
    ? await withDb((db) =>
        Promise.all([
          db.keychains.get(keychainId),
          db.transfers.where('keychainId').equals(keychainId).toArray(),
        ]),
      )
    : [undefined, []]
  // As the server decides: a tag of the selected organization for a role that reads tags, or of a keychain
  // with an open transfer to the caller (in any of their organizations); any other known tag is `foreign`.
  const readsHere = tag.organizationId === input.organizationId && input.permissions.includes('read__tag')
  const mine = transfers.some((each) => each.recipient.id === input.userId && isOpenAt(each, now))
  if (!readsHere && !mine) return { status: 'foreign', scanId: input.scanId, publicId: tag.publicId }
  // Declared lost (the mirror got it from the change feed): no keychain, no action, as the server answers.
  if (tag.lostAt) {
    const { id, code, name, lostAt } = tag
    return { status: 'lost', scanId: input.scanId, tag: { id, code, name, lostAt } }
  }
  // Elsewhere than the selected organization the device does not know the caller's role: only the pickup.
  const permissions = tag.organizationId === input.organizationId ? input.permissions : ['pickup__transfer']
  const detail = row?.detail
  return {
    status: 'resolved',
    scanId: input.scanId,
    tag: plainTag(tag),
    key: detail?.keys.find((key) => key.tag?.id === tag.id) ?? null,
    keychain:
      keychainId && tag.key
        ? {
            id: keychainId,
            name: tag.key.keychainName,
            custodian: detail?.custodian ?? row?.summary?.custodian ?? null,
          }
        : null,
    actions: SCAN_ACTIONS.filter((action) => permissions.includes(action)),
    transfer: concerning(transfers, input.userId, now),
  }
}
