import * as v from 'valibot'
import { KeychainSchema } from './keychains.ts'
import { PersonSchema } from './person.ts'
import { TagSchema } from './tags.ts'
import { TransferSchema } from './transfers.ts'

/** Rows per page of the change feed: the default, and the most a device may ask for. */
export const SYNC_PAGE_DEFAULT = 500
export const SYNC_PAGE_MAX = 2000

/**
 * A cursor older than this is not replayed: the device syncs in full again (catching up on a month of
 * changes costs more than reading the organization afresh, and a device away that long is a new start).
 */
export const SYNC_RETENTION_MS = 30 * 24 * 60 * 60 * 1000

/** A member's device key as the sync feed carries it, so an offline phone checks a colleague's signature. */
export const MirroredDeviceKeySchema = v.object({
  id: v.string(),
  userId: v.string(),
  person: PersonSchema,
  publicKey: v.string(),
  fingerprint: v.string(),
  expiresAt: v.string(),
  revokedAt: v.nullable(v.string()),
})
export type MirroredDeviceKey = v.InferOutput<typeof MirroredDeviceKeySchema>

export const SyncQuerySchema = v.object({
  /** Where the device left off; without one, the feed starts with the whole organization. */
  cursor: v.optional(v.pipe(v.string(), v.maxLength(1000, 'Malformed cursor.'))),
  limit: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+$/, 'limit must be a whole number.'),
      v.transform(Number),
      v.minValue(1, 'limit must be at least 1.'),
      v.maxValue(SYNC_PAGE_MAX, `limit must be at most ${SYNC_PAGE_MAX}.`),
    ),
  ),
})

export const SYNC_PHASES = ['snapshot', 'changes'] as const

/**
 * One page of the field mirror's change feed for the selected organization, as the caller's role may read it.
 * Rows are upserts (the row as it is now); `deleted` lists ids to drop. `reset`: the device drops its mirror of
 * the organization once this snapshot ends (first sync, cursor too old, role or organization changed) and
 * keeps its outbox. `more`: ask again at once with `cursor`.
 */
export const SyncPageSchema = v.object({
  reset: v.boolean(),
  phase: v.picklist(SYNC_PHASES),
  organizationId: v.string(),
  keychains: v.array(KeychainSchema),
  tags: v.array(TagSchema),
  transfers: v.array(TransferSchema),
  /** The active device keys of the organization's members (every page carries them all: they are few). */
  deviceKeys: v.array(MirroredDeviceKeySchema),
  deleted: v.object({ keychains: v.array(v.string()) }),
  cursor: v.string(),
  more: v.boolean(),
  /** While the snapshot runs: rows sent so far and in all. */
  progress: v.nullable(v.object({ done: v.number(), total: v.number() })),
})
export type SyncPage = v.InferOutput<typeof SyncPageSchema>
