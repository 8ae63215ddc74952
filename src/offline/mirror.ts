import type { Profile } from '../../contract/auth.ts'
import type { Keychain, KeychainSummary } from '../../contract/keychains.ts'
import type { Organization } from '../../contract/organizations.ts'
import { parseScanValue } from '../../contract/scan-value.ts'
import type { Tag, TagLanding } from '../../contract/tags.ts'
import type { Dashboard, Transfer } from '../../contract/transfers.ts'
import { type MirroredTag, type MirroredTransfer, type TrousseauDb, withDb } from './db.ts'
import { putTags, tagByCode, tagByPublicId } from './tag-store.ts'

const OWNER_KEY = 'owner'

/** The account the mirror belongs to (null: nobody's). */
export async function mirrorOwner(db: TrousseauDb): Promise<string | null> {
  return (await db.meta.get(OWNER_KEY))?.value ?? null
}

/**
 * Makes the mirror `userId`'s: when another account (or nobody) owned it, everything mirrored is forgotten
 * first, so no data of one account is ever shown to another. The outbox stays: its items wait for their own
 * account, and so do the device's signing keys (one per account, never readable).
 */
export async function claimMirror(userId: string | null): Promise<void> {
  await withDb(async (db) => {
    const owner = (await db.meta.get(OWNER_KEY))?.value ?? null
    if (owner === userId) return
    const tables = [
      db.keychains,
      db.tagBuckets,
      db.transfers,
      db.profile,
      db.meta,
      db.deviceKeys,
      db.pendingOffers,
    ]
    await db.transaction('rw', [...tables, db.handovers], async () => {
      await Promise.all([
        db.keychains.clear(),
        db.tagBuckets.clear(),
        db.transfers.clear(),
        db.profile.clear(),
        db.deviceKeys.clear(),
        db.pendingOffers.clear(),
        // Handovers still to send wait with their outbox items for their own account.
        db.handovers.filter((row) => row.state !== 'queued').delete(),
      ])
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
      const current = await db.keychains.bulkGet(rows.map((summary) => summary.id))
      await db.keychains.bulkPut(
        rows.map((summary, index) => ({
          ...current[index],
          id: summary.id,
          organizationId,
          summary,
          detail: current[index]?.detail ?? null,
        })),
      )
    }),
  )
}

export async function mirrorKeychain(keychain: Keychain): Promise<void> {
  await withDb(async (db) => {
    const current = await db.keychains.get(keychain.id)
    await db.keychains.put({
      ...current,
      id: keychain.id,
      organizationId: keychain.organizationId,
      summary: current?.summary ?? null,
      detail: keychain,
    })
  })
}

export const asMirroredTag = (organizationId: string, tag: Tag, gen?: string): MirroredTag => ({
  ...tag,
  organizationId,
  ...(gen ? { gen } : {}),
})

/** The tag as the server sent it, without what the mirror adds. */
export function plainTag(tag: MirroredTag): Tag {
  const { organizationId: _organizationId, gen: _gen, ...plain } = tag
  return plain
}

export const summaryOf = (keychain: Keychain): KeychainSummary => ({
  id: keychain.id,
  name: keychain.name,
  custodian: keychain.custodian,
  keyCount: keychain.keys.length,
  tagCodes: keychain.keys.flatMap((key) => (key.tag ? [key.tag.code] : [])).sort(),
  updatedAt: keychain.updatedAt,
})

/** The tags on the keys of the transfers' keychains: how a recipient who cannot list tags knows them. */
export const tagsOfTransfers = (transfers: Transfer[]): MirroredTag[] =>
  transfers.flatMap((each) => each.keychain.tags.map((tag) => asMirroredTag(each.organizationId, tag)))

export const asMirroredTransfer = (transfer: Transfer, mine: boolean, gen?: string): MirroredTransfer => ({
  ...transfer,
  recipientId: transfer.recipient.id,
  keychainId: transfer.keychain.id,
  mine: mine ? 1 : 0,
  ...(gen ? { gen } : {}),
})

/**
 * Transfers as the server sent them. `userId`: the signed-in user, to mark those addressed to them; null when
 * the caller does not know it (a list screen): a transfer keeps the mark it had. Rows keep the full sync that
 * wrote them (`gen`).
 */
export async function mirrorTransfers(transfers: Transfer[], userId: string | null): Promise<void> {
  await withDb((db) =>
    db.transaction('rw', db.transfers, db.tagBuckets, async () => {
      const known = await db.transfers.bulkGet(transfers.map((each) => each.id))
      await db.transfers.bulkPut(
        transfers.map((each, index) =>
          asMirroredTransfer(
            each,
            userId === null ? known[index]?.mine === 1 : each.recipient.id === userId,
            known[index]?.gen,
          ),
        ),
      )
      await putTags(db, tagsOfTransfers(transfers))
    }),
  )
}

export async function mirroredKeychain(id: string): Promise<Keychain | undefined> {
  return withDb(async (db) => (await db.keychains.get(id))?.detail ?? undefined)
}

export async function mirroredKeychainSummaries(organizationId: string): Promise<KeychainSummary[]> {
  return withDb(async (db) => {
    const rows = await db.keychains.filter((row) => row.organizationId === organizationId).toArray()
    return (
      rows
        // The feed stores the detail only: the summary is made from it.
        .flatMap((row) => (row.summary ? [row.summary] : row.detail ? [summaryOf(row.detail)] : []))
        .sort((a, b) => a.name.localeCompare(b.name))
    )
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
      ? tagByPublicId(db, target.publicId)
      : tagByCode(db, organizationId, target.code),
  )
}

/** Answers kept whole (no row of their own): the dashboard's figures and the list of my organizations. */
const snapshotKey = {
  dashboard: (organizationId: string | null) => `dashboard:${organizationId ?? ''}`,
  organizations: 'organizations',
}

async function keepSnapshot(key: string, value: unknown): Promise<void> {
  await withDb((db) => db.meta.put({ key, value: JSON.stringify(value) }))
}

async function snapshot<T>(key: string): Promise<T | undefined> {
  const entry = await withDb((db) => db.meta.get(key))
  return entry ? (JSON.parse(entry.value) as T) : undefined
}

export const mirrorDashboard = (organizationId: string | null, dashboard: Dashboard) =>
  keepSnapshot(snapshotKey.dashboard(organizationId), dashboard)

export const mirroredDashboard = (organizationId: string | null) =>
  snapshot<Dashboard>(snapshotKey.dashboard(organizationId))

export const mirrorOrganizations = (organizations: Organization[]) =>
  keepSnapshot(snapshotKey.organizations, organizations)

export const mirroredOrganizations = () => snapshot<Organization[]>(snapshotKey.organizations)

/**
 * The tag page as the server shows it, from the mirror: to a member who reads tags, the tag, its keychain and
 * who holds it; to anyone else, the "found these keys?" page. Undefined when the device does not know the tag
 * or its organization.
 */
export async function mirroredTagLanding(publicId: string): Promise<TagLanding | undefined> {
  const tag = await withDb((db) => tagByPublicId(db, publicId))
  if (!tag) return undefined
  const { organizationId } = tag
  const [organizations, transfer, profile] = await Promise.all([
    mirroredOrganizations(),
    withDb((db) => db.transfers.where('organizationId').equals(organizationId).first()),
    withDb((db) => db.profile.toCollection().first()),
  ])
  const name =
    organizations?.find((each) => each.id === organizationId)?.name ?? transfer?.organizationName ?? null
  if (name === null) return undefined
  // As online: the member view needs the role to read tags there; anyone else sees the "found" page.
  const readsTags =
    profile?.selectedOrganizationId === organizationId && profile.permissions.includes('read__tag')
  if (!readsTags) return { view: 'found', code: tag.code, organization: { name } }
  const keychainId = tag.key?.keychainId ?? null
  const row = keychainId ? await withDb((db) => db.keychains.get(keychainId)) : undefined
  return {
    view: 'member',
    tag: plainTag(tag),
    keychain:
      keychainId && tag.key
        ? {
            id: keychainId,
            name: tag.key.keychainName,
            custodian: row?.detail?.custodian ?? row?.summary?.custodian ?? null,
          }
        : null,
    organization: { id: organizationId, name },
    permissions: profile.permissions,
  }
}
