import { parseOffer } from '../../contract/handover-codes.ts'
import type { SyncPage } from '../../contract/sync.ts'
import type { MirroredTag, OutboxKind, TrousseauDb } from './db.ts'
import { mirrorDeviceKeys } from './device-key.ts'
import { asMirroredTag, asMirroredTransfer, mirrorOwner } from './mirror.ts'
import { putTags, removeTags } from './tag-store.ts'

/** Where this device's mirror stands in the change feed (kept in `meta`, so a reload goes on from there). */
export type SyncState = {
  userId: string
  organizationId: string
  cursor: string
  /** The full sync that wrote the mirror's rows; a new one sweeps the rows it did not write. */
  gen: string
  /** A full sync is under way: once its snapshot ends, the rows of older ones go. */
  sweepPending: boolean
  /** When the device last heard from the feed (ms since epoch). */
  syncedAt: number
}

export const SYNC_STATE_KEY = 'sync'

export async function readSyncState(db: TrousseauDb): Promise<SyncState | null> {
  const entry = await db.meta.get(SYNC_STATE_KEY)
  return entry ? (JSON.parse(entry.value) as SyncState) : null
}

/** Short: every mirrored row carries it. */
const newGen = () => crypto.randomUUID().slice(0, 8)

/**
 * Writes one page of the feed into the mirror, in one transaction with the cursor it leads to, and answers the
 * new state; null when nothing was written: the mirror changed hands meanwhile (signed out, another account) or
 * `expected` is no longer the stored state (another tab synced meanwhile). A transfer with a pickup waiting in
 * the outbox, or sent since `requestedAt`, keeps the device's picture until the server's next word on it; so
 * does the custodian of a keychain handed over on this device until the feed shows a later custody change than
 * the handover's base. The page's device keys replace the mirrored ones.
 */
export async function applySyncPage(
  db: TrousseauDb,
  input: {
    page: SyncPage
    userId: string
    expected: SyncState | null
    requestedAt: string
    readsTags: boolean
    now?: number
  },
): Promise<SyncState | null> {
  const { page, userId } = input
  const tables = [
    db.keychains,
    db.tagBuckets,
    db.transfers,
    db.outbox,
    db.meta,
    db.deviceKeys,
    db.deviceKeyPairs,
  ]
  return db.transaction('rw', tables, async () => {
    if ((await mirrorOwner(db)) !== userId) return null
    const stored = await readSyncState(db)
    if (stored?.cursor !== input.expected?.cursor) return null
    const continuing = stored !== null && stored.organizationId === page.organizationId && !page.reset
    const state: SyncState = {
      userId,
      organizationId: page.organizationId,
      cursor: page.cursor,
      gen: continuing ? stored.gen : newGen(),
      sweepPending: continuing ? stored.sweepPending : true,
      syncedAt: input.now ?? Date.now(),
    }
    const held = await heldTransfers(db, input.requestedAt)
    if (state.sweepPending && page.phase === 'changes') {
      await sweep(db, state, held)
      state.sweepPending = false
    }
    const { gen } = state

    const current = await db.keychains.bulkGet(page.keychains.map((keychain) => keychain.id))
    const bases = await handedOver(db, input.requestedAt)
    await db.keychains.bulkPut(
      page.keychains.map((detail, index) => {
        const shown = current[index]?.detail
        // Never older than what a detail screen just wrote (same row, same `updatedAt` or later).
        const newest = shown && shown.updatedAt > detail.updatedAt ? shown : detail
        const base = bases.get(detail.id)
        const waiting = shown && base !== undefined && (detail.custodySeq ?? 0) <= base
        return {
          id: detail.id,
          organizationId: detail.organizationId,
          // The summary is made from the detail when read (`mirroredKeychainSummaries`): stored once.
          summary: null,
          detail: waiting ? { ...newest, custodian: shown.custodian, status: shown.status } : newest,
          gen,
        }
      }),
    )
    await db.keychains.bulkDelete(page.deleted.keychains)

    const transfers = page.transfers.filter((transfer) => !held.has(transfer.id))
    await db.transfers.bulkPut(
      transfers.map((each) => asMirroredTransfer(each, each.recipient.id === userId, gen)),
    )

    const tags: MirroredTag[] = page.tags.map((tag) => asMirroredTag(page.organizationId, tag, gen))
    if (!input.readsTags) tags.push(...(await tagsOfLentKeychains(db, transfers, gen)))
    await putTags(db, tags)
    await mirrorDeviceKeys(db, page.organizationId, page.deviceKeys, userId)

    await db.meta.put({ key: SYNC_STATE_KEY, value: JSON.stringify(state) })
    return state
  })
}

/** Items of `kind` waiting in the outbox, or sent since the page was asked for. */
const unsettledItems = (db: TrousseauDb, kind: OutboxKind, since: string) =>
  db.outbox
    .filter(
      (item) =>
        item.kind === kind && (item.status === 'pending' || (item.sentAt !== null && item.sentAt >= since)),
    )
    .toArray()

/** Transfers whose pickup or return waits in the outbox, or was sent since the page was asked for. */
async function heldTransfers(db: TrousseauDb, since: string): Promise<Set<string>> {
  return new Set((await unsettledItems(db, 'pickup', since)).map((item) => item.value))
}

/**
 * Keychains handed over on this device whose handover waits in the outbox, or was sent since the page was asked
 * for, with the custody change each was based on: until the feed shows a later one, the mirror's custodian stays.
 */
async function handedOver(db: TrousseauDb, since: string): Promise<Map<string, number>> {
  const bases = new Map<string, number>()
  for (const item of await unsettledItems(db, 'handover', since)) {
    const offer = parseOffer(item.handover?.offer ?? '')
    if (offer)
      bases.set(offer.value.keychainId, Math.max(offer.value.base, bases.get(offer.value.keychainId) ?? 0))
  }
  return bases
}

/**
 * A role that cannot list tags knows those of the keychains lent to it from its transfers: each transfer says
 * which tags its keychain has now, so a tag taken off it is forgotten.
 */
async function tagsOfLentKeychains(db: TrousseauDb, transfers: SyncPage['transfers'], gen: string) {
  if (transfers.length === 0) return []
  const lent = new Map(
    transfers.map((each) => [each.keychain.id, new Set(each.keychain.tags.map((tag) => tag.id))]),
  )
  // Such a role's mirror holds only these few tags: reading them all is cheap.
  await removeTags(db, (tag) => {
    const now = tag.key ? lent.get(tag.key.keychainId) : undefined
    return now !== undefined && !now.has(tag.id)
  })
  return transfers.flatMap((each) =>
    each.keychain.tags.map((tag) => asMirroredTag(each.organizationId, tag, gen)),
  )
}

/**
 * The end of a full sync: what it did not write goes (a keychain deleted while the device was away, rows a
 * former role could read), except the transfers addressed to the user in other organizations (and their
 * keychains' tags), which `refreshRequests` keeps.
 */
async function sweep(db: TrousseauDb, state: SyncState, held: Set<string>): Promise<void> {
  const stale = <T extends { id: string; gen?: string }>(row: T) => row.gen !== state.gen && !held.has(row.id)
  // A keychain made by a pairing still in the outbox stays until the server answers it.
  await db.keychains.filter((row) => stale(row) && !row.waiting).delete()
  const keptElsewhere = await db.transfers
    .filter((row) => row.organizationId !== state.organizationId && row.mine === 1)
    .toArray()
  const keptKeychains = new Set(keptElsewhere.map((row) => row.keychainId))
  await db.transfers
    .filter((row) => stale(row) && !(row.organizationId !== state.organizationId && row.mine === 1))
    .delete()
  await removeTags(
    db,
    (tag) =>
      stale(tag) &&
      !(tag.organizationId !== state.organizationId && keptKeychains.has(tag.key?.keychainId ?? '')),
  )
}
