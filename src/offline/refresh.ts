import type * as v from 'valibot'
import { ProfileSchema } from '../../contract/auth.ts'
import { KeychainPageSchema, type KeychainSummary } from '../../contract/keychains.ts'
import { OrganizationListSchema } from '../../contract/organizations.ts'
import { type Tag, TagPageSchema } from '../../contract/tags.ts'
import { DashboardSchema, type Transfer, TransferPageSchema } from '../../contract/transfers.ts'
import { api } from '../lib/api.ts'
import { type MirroredKeychain, type MirroredTransfer, withDb } from './db.ts'
import type { FieldContext } from './field.ts'
import {
  asMirroredTag,
  asMirroredTransfer,
  mirrorDashboard,
  mirrorOrganizations,
  mirrorOwner,
  mirrorProfile,
  tagsOfTransfers,
} from './mirror.ts'

/** At most this many pages of 100 per list: a mirror of 2 000 keychains, tags and transfers. */
const MAX_PAGES = 20

/** Every row of a list (`complete`), or its first `MAX_PAGES` pages. */
type Fetched<T> = { rows: T[]; complete: boolean }

async function everyPage<T>(
  path: string,
  schema: v.GenericSchema<unknown, { data: T[]; nextCursor: string | null }>,
): Promise<Fetched<T>> {
  const rows: T[] = []
  let cursor: string | null = null
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const separator = path.includes('?') ? '&' : '?'
    const url: string = `${path}${separator}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`
    const answer: { data: T[]; nextCursor: string | null } = await api(url, { schema })
    rows.push(...answer.data)
    cursor = answer.nextCursor
    if (!cursor) return { rows, complete: true }
  }
  return { rows, complete: false }
}

/** What the server lists for the mirror; null: the role may not read it (the mirror must not keep any). */
export type MirrorSnapshot = {
  userId: string
  organizationId: string
  tags: Fetched<Tag> | null
  keychains: Fetched<KeychainSummary> | null
  transfers: Fetched<Transfer> | null
  requests: Fetched<Transfer>
  /** When the fetching began: a pickup sent since may be newer than what the lists say. */
  startedAt: string
}

/** Only the newest refresh writes: one started before an organization switch must not file the new one's rows. */
let generation = 0

/**
 * Fills the mirror with what field screens need, for the selected organization and the signed-in user, as far
 * as their role may read it: tags, keychains, the organization's transfers and the transfers addressed to them.
 * Everything is fetched first, then written at once in place of what was there; nothing is written when the
 * session moved on meanwhile (another organization selected, another account, a newer refresh).
 */
export async function refreshMirror(context: FieldContext): Promise<boolean> {
  const mine = ++generation
  const startedAt = new Date().toISOString()
  const can = (permission: string) => context.permissions.includes(permission)
  const { organizationId, userId } = context
  const organizations = await api('/organizations', { schema: OrganizationListSchema })
  const dashboard = await api('/stats/dashboard', { schema: DashboardSchema })
  const snapshot: MirrorSnapshot = {
    userId,
    organizationId,
    tags: can('read__tag') ? await everyPage(`/organizations/${organizationId}/tags`, TagPageSchema) : null,
    // `/keychains` and `/transfers` list the organization the session has selected: checked below.
    keychains: can('read__keychain') ? await everyPage('/keychains', KeychainPageSchema) : null,
    transfers: can('read__transfer') ? await everyPage('/transfers', TransferPageSchema) : null,
    requests: await everyPage('/transfers/requests', TransferPageSchema),
    startedAt,
  }
  const profile = await api('/profile', { schema: ProfileSchema })
  if (profile.id !== userId || profile.selectedOrganizationId !== organizationId) return false
  return replaceMirror(snapshot, {
    current: () => mine === generation,
    alongside: async () => {
      await mirrorOrganizations(organizations.data)
      await mirrorDashboard(organizationId, dashboard)
      await mirrorProfile(profile)
    },
  })
}

/**
 * Writes a refresh in place of the mirror's rows: what the server no longer lists (a deleted keychain, a tag
 * moved away, another organization's rows) goes, except what a list cut at `MAX_PAGES` may still hold. A
 * transfer with a pickup waiting in the outbox (or sent since the fetching began) keeps the device's picture.
 * Writes nothing, and answers false, when the mirror changed hands or `current` says a newer refresh runs.
 */
export async function replaceMirror(
  snapshot: MirrorSnapshot,
  options: { current?: () => boolean; alongside?: () => Promise<void> } = {},
): Promise<boolean> {
  const transfers = new Map<string, MirroredTransfer>()
  for (const each of snapshot.transfers?.rows ?? [])
    transfers.set(each.id, asMirroredTransfer(each, each.recipient.id === snapshot.userId))
  for (const each of snapshot.requests.rows) transfers.set(each.id, asMirroredTransfer(each, true))
  const tags = [
    ...(snapshot.tags?.rows ?? []).map((tag) => asMirroredTag(snapshot.organizationId, tag)),
    ...tagsOfTransfers([...transfers.values()]),
  ]
  const complete = (list: Fetched<unknown> | null) => list === null || list.complete

  return withDb((db) =>
    db.transaction('rw', [db.keychains, db.tags, db.transfers, db.outbox, db.meta, db.profile], async () => {
      // Checked in the same transaction as the writes: a sign-out or another account's sign-in in between wins.
      if ((await mirrorOwner(db)) !== snapshot.userId || !(options.current?.() ?? true)) return false
      const waiting = await db.outbox
        .filter(
          (item) =>
            item.kind === 'pickup' &&
            (item.status === 'pending' || (item.sentAt !== null && item.sentAt >= snapshot.startedAt)),
        )
        .toArray()
      for (const item of waiting) {
        const kept = await db.transfers.get(item.value)
        if (kept) transfers.set(kept.id, kept)
      }
      if (complete(snapshot.transfers) && snapshot.requests.complete) await db.transfers.clear()
      await db.transfers.bulkPut([...transfers.values()])

      if (complete(snapshot.tags)) await db.tags.clear()
      await db.tags.bulkPut(tags)

      const summaries = snapshot.keychains?.rows ?? []
      const details = await db.keychains.bulkGet(summaries.map((each) => each.id))
      if (complete(snapshot.keychains)) await db.keychains.clear()
      await db.keychains.bulkPut(
        summaries.map(
          (summary, index): MirroredKeychain => ({
            id: summary.id,
            organizationId: snapshot.organizationId,
            summary,
            detail: details[index]?.detail ?? null,
          }),
        ),
      )
      await options.alongside?.()
      return true
    }),
  )
}
