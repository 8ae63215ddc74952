import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import { ErrorCode } from '../../../contract/errors.ts'
import type { Keychain } from '../../../contract/keychains.ts'
import type { Db } from '../../db/client.ts'
import { keychains, keys, organizationCounters, tags } from '../../db/schema.ts'
import type { AppDeps } from '../../deps.ts'
import { ApiError } from '../../http/errors.ts'
import { appendEvent } from '../events/append.ts'
import { keychainDetail } from './detail.ts'
import { findKeychain } from './find.ts'
import { refusingTakenTag } from './keys.ts'

type Deps = Pick<AppDeps, 'database' | 'clock'>

/**
 * Soft-deletes these keychains of the organization inside the caller's transaction (rows locked, guards
 * passed): each is marked deleted, and its TAG keys let their tags go (free, as after a deletion: a scan finds a
 * free tag, never the deleted keychain) and remember them in `parked_tag_id` for a restore. Keys, custody log and
 * transfers stay. Answers the tags each keychain freed, for its `keychain.deleted` event.
 */
export async function softDeleteKeychainsIn(
  tx: Db,
  input: { organizationId: string; ids: string[]; actorId: string | null; now: Date },
): Promise<Map<string, string[]>> {
  const freed = await tx
    .update(keys)
    .set({ parkedTagId: sql`${keys.tagId}`, tagId: null })
    .where(and(inArray(keys.keychainId, input.ids), isNotNull(keys.tagId)))
    .returning({ keychainId: keys.keychainId, tagId: keys.parkedTagId })
  await tx
    .update(keychains)
    .set({ deletedAt: input.now, deletedById: input.actorId, updatedAt: input.now })
    .where(inArray(keychains.id, input.ids))
  // The dashboard's count (kept by triggers on insert and delete) leaves them out too.
  await tx
    .update(organizationCounters)
    .set({ keychains: sql`${organizationCounters.keychains} - ${input.ids.length}` })
    .where(eq(organizationCounters.organizationId, input.organizationId))
  const byKeychain = new Map<string, string[]>(input.ids.map((id) => [id, []]))
  for (const key of freed) if (key.tagId) byKeychain.get(key.keychainId)?.push(key.tagId)
  return byKeychain
}

const holder = alias(keys, 'holder')

/**
 * Brings a deleted keychain back with its keys and their tags (a restore after an undo, or from the deleted
 * list). A tag that went on another key meanwhile refuses the restore (409 `tag_taken`, naming the codes):
 * nothing changes until that key lets it go.
 */
export async function restoreKeychain(
  deps: Deps,
  input: { organizationId: string; id: string; actorId: string },
): Promise<Keychain> {
  const now = deps.clock.now()
  return refusingTakenTag(() =>
    deps.database.db.transaction(async (tx: Db) => {
      const current = await findKeychain(tx, input.organizationId, input.id, { lock: true, deleted: true })
      const parked = await tx
        .select({ tagId: tags.id, code: tags.code, takenBy: holder.id })
        .from(keys)
        .innerJoin(tags, eq(tags.id, keys.parkedTagId))
        .leftJoin(holder, eq(holder.tagId, keys.parkedTagId))
        .where(and(eq(keys.keychainId, current.id), isNotNull(keys.parkedTagId)))
      const taken = parked.filter((row) => row.takenBy !== null).map((row) => row.code)
      if (taken.length > 0) {
        throw new ApiError(
          409,
          ErrorCode.tagTaken,
          `Cannot restore: ${taken.sort().join(', ')} ${taken.length === 1 ? 'is' : 'are'} now on another key. Remove ${taken.length === 1 ? 'it' : 'them'} there first.`,
        )
      }
      await tx
        .update(keys)
        .set({ tagId: sql`${keys.parkedTagId}`, parkedTagId: null })
        .where(and(eq(keys.keychainId, current.id), isNotNull(keys.parkedTagId)))
      await tx
        .update(keychains)
        .set({ deletedAt: null, deletedById: null, updatedAt: now })
        .where(eq(keychains.id, current.id))
      await tx
        .update(organizationCounters)
        .set({ keychains: sql`${organizationCounters.keychains} + 1` })
        .where(eq(organizationCounters.organizationId, input.organizationId))
      await appendEvent(tx, {
        organizationId: input.organizationId,
        kind: 'keychain.restored',
        actorId: input.actorId,
        serverTime: now,
        keychainIds: [current.id],
        tagIds: parked.map((row) => row.tagId),
        payload: { name: current.name },
      })
      return keychainDetail(tx, input.organizationId, current.id)
    }),
  )
}
