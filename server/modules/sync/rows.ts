import { and, asc, eq, gt, inArray, or } from 'drizzle-orm'
import type { Tag } from '../../../contract/tags.ts'
import type { Transfer } from '../../../contract/transfers.ts'
import type { Db } from '../../db/client.ts'
import { keychains, keys, organizationCounters, tags, transfers } from '../../db/schema.ts'
import { toTag } from '../../shared/tag-view.ts'
import { selectTransfers, toTransfers } from '../../shared/transfer-view.ts'
import { keychainDetails } from '../keychains/detail.ts'
import { keyLinkOf, selectLinkedTags } from '../tags/list.ts'

/** The rows of the mirror, read in batches: by the ids a page of events touched, or a snapshot page at a time. */

export const keychainsByIds = async (db: Db, organizationId: string, ids: string[]) =>
  ids.length === 0 ? [] : keychainDetails(db, organizationId, inArray(keychains.id, ids))

/** A snapshot page: the organization's keychains after `afterId`, in id order. */
export const keychainPage = (db: Db, organizationId: string, afterId: string | null, limit: number) =>
  keychainDetails(db, organizationId, afterId ? gt(keychains.id, afterId) : undefined, limit)

/** Tags by id, and the tags on the keys of these keychains (their key and keychain names show on the tag). */
export async function tagsByIds(
  db: Db,
  organizationId: string,
  ids: { tagIds: string[]; keychainIds: string[] },
  publicUrl: string,
): Promise<Tag[]> {
  const touched = [
    ids.tagIds.length > 0 ? inArray(tags.id, ids.tagIds) : undefined,
    ids.keychainIds.length > 0 ? inArray(keys.keychainId, ids.keychainIds) : undefined,
  ].filter((each) => each !== undefined)
  if (touched.length === 0) return []
  const rows = await selectLinkedTags(db, and(eq(tags.organizationId, organizationId), or(...touched)))
  return rows.map((row) => toTag(row.tag, keyLinkOf(row), publicUrl))
}

/** A snapshot page: the organization's tags after the code `afterCode`, in code order (unique in it). */
export async function tagPage(
  db: Db,
  organizationId: string,
  afterCode: string | null,
  limit: number,
  publicUrl: string,
): Promise<Tag[]> {
  const rows = await selectLinkedTags(
    db,
    and(eq(tags.organizationId, organizationId), afterCode ? gt(tags.code, afterCode) : undefined),
    limit,
  )
  return rows.map((row) => toTag(row.tag, keyLinkOf(row), publicUrl))
}

export type TransferReader = { userId: string; onlyOwn: boolean }

/** Which of the organization's transfers the reader sees: all of them, or those addressed to them. */
const visibleTransfers = (organizationId: string, reader: TransferReader) =>
  and(
    eq(transfers.organizationId, organizationId),
    reader.onlyOwn ? eq(transfers.recipientId, reader.userId) : undefined,
  )

/** Transfers by id, and every transfer of these keychains (their name and tags show on the transfer). */
export async function transfersByIds(
  db: Db,
  organizationId: string,
  ids: { transferIds: string[]; keychainIds: string[] },
  reader: TransferReader,
  context: { now: Date; publicUrl: string },
): Promise<Transfer[]> {
  const touched = [
    ids.transferIds.length > 0 ? inArray(transfers.id, ids.transferIds) : undefined,
    ids.keychainIds.length > 0 ? inArray(transfers.keychainId, ids.keychainIds) : undefined,
  ].filter((each) => each !== undefined)
  if (touched.length === 0) return []
  const rows = await selectTransfers(db).where(and(visibleTransfers(organizationId, reader), or(...touched)))
  return toTransfers(db, rows, reader.userId, context.now, context.publicUrl)
}

/** A snapshot page: the transfers the reader sees after `afterId`, in id order. */
export async function transferPage(
  db: Db,
  organizationId: string,
  reader: TransferReader,
  afterId: string | null,
  limit: number,
  context: { now: Date; publicUrl: string },
): Promise<Transfer[]> {
  const rows = await selectTransfers(db)
    .where(and(visibleTransfers(organizationId, reader), afterId ? gt(transfers.id, afterId) : undefined))
    .orderBy(asc(transfers.id))
    .limit(limit)
  return toTransfers(db, rows, reader.userId, context.now, context.publicUrl)
}

/**
 * How many rows each snapshot entity holds for the reader, for the progress shown on the device: keychains and
 * tags from the counters the triggers keep (`organization_counters`), transfers counted (few per reader).
 */
export async function snapshotTotals(
  db: Db,
  organizationId: string,
  reader: TransferReader,
): Promise<Record<'tags' | 'keychains' | 'transfers', number>> {
  const [counters] = await db
    .select({ keychains: organizationCounters.keychains, tags: organizationCounters.tags })
    .from(organizationCounters)
    .where(eq(organizationCounters.organizationId, organizationId))
  return {
    tags: counters?.tags ?? 0,
    keychains: counters?.keychains ?? 0,
    transfers: await db.$count(transfers, visibleTransfers(organizationId, reader)),
  }
}
