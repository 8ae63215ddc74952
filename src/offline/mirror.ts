import type { Profile } from '../../contract/auth.ts'
import type { Keychain, KeychainSummary } from '../../contract/keychains.ts'
import { parseScanValue } from '../../contract/scan-value.ts'
import { SCAN_ACTIONS, type ScanResult } from '../../contract/scans.ts'
import type { Tag } from '../../contract/tags.ts'
import type { Transfer } from '../../contract/transfers.ts'
import { type MirroredTag, type MirroredTransfer, withDb } from './db.ts'

const OWNER_KEY = 'owner'

/**
 * Makes the mirror `userId`'s: when another account (or nobody) owned it, everything mirrored is forgotten
 * first, so no data of one account is ever shown to another. The outbox stays: its items wait for their own
 * account.
 */
export async function claimMirror(userId: string | null): Promise<void> {
  await withDb(async (db) => {
    const owner = (await db.meta.get(OWNER_KEY))?.value ?? null
    if (owner === userId) return
    await db.transaction('rw', [db.keychains, db.tags, db.transfers, db.profile, db.meta], async () => {
      await Promise.all([db.keychains.clear(), db.tags.clear(), db.transfers.clear(), db.profile.clear()])
      await db.meta.clear()
      if (userId) await db.meta.put({ key: OWNER_KEY, value: userId })
    })
  })
}

export async function mirrorProfile(profile: Profile): Promise<void> {
  await withDb((db) => db.profile.put(profile))
}

export async function mirrorKeychainSummaries(
  organizationId: string,
  rows: KeychainSummary[],
): Promise<void> {
  await withDb((db) =>
    db.transaction('rw', db.keychains, async () => {
      for (const summary of rows) {
        const current = await db.keychains.get(summary.id)
        await db.keychains.put({ id: summary.id, organizationId, summary, detail: current?.detail ?? null })
      }
    }),
  )
}

export async function mirrorKeychain(keychain: Keychain): Promise<void> {
  await withDb(async (db) => {
    const current = await db.keychains.get(keychain.id)
    await db.keychains.put({
      id: keychain.id,
      organizationId: keychain.organizationId,
      summary: current?.summary ?? null,
      detail: keychain,
    })
  })
}

export async function mirrorTags(organizationId: string, tags: Tag[]): Promise<void> {
  await withDb((db) =>
    db.tags.bulkPut(tags.map((tag) => ({ ...tag, organizationId, codeKey: tag.code.toUpperCase() }))),
  )
}

const asMirrored = (transfer: Transfer, mine: boolean): MirroredTransfer => ({
  ...transfer,
  recipientId: transfer.recipient.id,
  keychainId: transfer.keychain.id,
  mine: mine ? 1 : 0,
})

/**
 * Transfers as the server sent them. `userId`: the signed-in user, to mark those addressed to them; null when
 * the caller does not know it (a list screen): a transfer keeps the mark it had.
 */
export async function mirrorTransfers(transfers: Transfer[], userId: string | null): Promise<void> {
  await withDb(async (db) => {
    const known = userId === null ? await db.transfers.bulkGet(transfers.map((each) => each.id)) : []
    await db.transfers.bulkPut(
      transfers.map((each, index) =>
        asMirrored(each, userId === null ? known[index]?.mine === 1 : each.recipient.id === userId),
      ),
    )
  })
}

export async function mirroredKeychain(id: string): Promise<Keychain | undefined> {
  return withDb(async (db) => (await db.keychains.get(id))?.detail ?? undefined)
}

export async function mirroredKeychainSummaries(organizationId: string): Promise<KeychainSummary[]> {
  return withDb(async (db) => {
    const rows = await db.keychains.where('organizationId').equals(organizationId).toArray()
    return rows
      .flatMap((row) => (row.summary ? [row.summary] : []))
      .sort((a, b) => a.name.localeCompare(b.name))
  })
}

export async function mirroredTransfers(organizationId: string): Promise<Transfer[]> {
  return withDb((db) =>
    db.transfers.where('organizationId').equals(organizationId).reverse().sortBy('fromDate'),
  )
}

export async function mirroredRequests(): Promise<Transfer[]> {
  return withDb((db) => db.transfers.where('mine').equals(1).reverse().sortBy('fromDate'))
}

export async function mirroredTransfer(id: string): Promise<Transfer | undefined> {
  return withDb((db) => db.transfers.get(id))
}

export async function mirroredTag(organizationId: string, value: string): Promise<MirroredTag | undefined> {
  const target = parseScanValue(value)
  if (target.kind === 'none') return undefined
  return withDb((db) =>
    target.kind === 'publicId'
      ? db.tags.where('publicId').equals(target.publicId).first()
      : db.tags.where('[organizationId+codeKey]').equals([organizationId, target.code]).first(),
  )
}

/**
 * The transfer of a keychain that concerns `userId`, as the server picks it: the one out, else theirs
 * whose window is open, else the next scheduled one. `next` is checked against `now` (the device's clock): a
 * pickup offline is offered only inside the window the mirror knows.
 */
function concerning(transfers: Transfer[], userId: string, now: Date): Transfer | null {
  const out = transfers.find((each) => each.status === 'TRANSFERRED' || each.status === 'RETURNING')
  const open = (each: Transfer) => new Date(each.startsAt) <= now && now < new Date(each.endsAt)
  const mine = transfers.find(
    (each) => each.status === 'SCHEDULED' && each.recipient.id === userId && open(each),
  )
  const upcoming = transfers
    .filter((each) => each.status === 'SCHEDULED' && now < new Date(each.endsAt))
    .sort((a, b) => a.startsAt.localeCompare(b.startsAt))[0]
  const found = out ?? mine ?? upcoming ?? null
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
  const tag = await mirroredTag(input.organizationId, input.value)
  if (!tag || tag.organizationId !== input.organizationId)
    return { status: 'unknown', scanId: input.scanId, value: input.value }
  const keychainId = tag.key?.keychainId ?? null
  const row = keychainId ? await withDb((db) => db.keychains.get(keychainId)) : undefined
  const transfers = keychainId
    ? await withDb((db) => db.transfers.where('keychainId').equals(keychainId).toArray())
    : []
  const detail = row?.detail
  const { organizationId: _organizationId, codeKey: _codeKey, ...plainTag } = tag
  return {
    status: 'resolved',
    scanId: input.scanId,
    tag: plainTag,
    key: detail?.keys.find((key) => key.tag?.id === tag.id) ?? null,
    keychain:
      keychainId && tag.key
        ? {
            id: keychainId,
            name: tag.key.keychainName,
            custodian: detail?.custodian ?? row?.summary?.custodian ?? null,
          }
        : null,
    actions: SCAN_ACTIONS.filter((action) => input.permissions.includes(action)),
    transfer: concerning(transfers, input.userId, input.now ?? new Date()),
  }
}
