import { eq } from 'drizzle-orm'
import { ErrorCode } from '../../../contract/errors.ts'
import type { Db } from '../../db/client.ts'
import { type TagRow, tagRetiredPublicIds, tags } from '../../db/schema.ts'
import { ApiError } from '../../http/errors.ts'
import { appendEvent } from '../events/append.ts'
import { newPublicId, tagCode } from './public-id.ts'

export const MAX_TAG_NUMBER = 99_999
/** Rows per insert statement when tags are created in bulk. */
export const TAG_INSERT_BATCH = 500

export type TagBatch = {
  /** 2 to 4 letters, e.g. `AGC`. */
  alphaCode: string
  startNumber: number
  count: number
  name: string
  foregroundColor: string
  backgroundColor: string
}

/** The row of one new tag: its code from the alpha code and number, an unguessable public id, its colours. */
export function tagRow(
  organizationId: string,
  alphaCode: string,
  number: number,
  look: Pick<TagBatch, 'name' | 'foregroundColor' | 'backgroundColor'>,
  now: Date,
) {
  return {
    publicId: newPublicId(),
    organizationId,
    alphaCode,
    number,
    code: tagCode(alphaCode, number),
    name: look.name,
    foregroundColor: look.foregroundColor.toLowerCase(),
    backgroundColor: look.backgroundColor.toLowerCase(),
    createdAt: now,
  }
}

/**
 * Creates `count` tags numbered from `startNumber` (`AGC-00042`, `AGC-00043`, …), each with its own
 * unguessable public id. Called by tests and the demo seed now, by paid orders later. A code already used in
 * the organization is a 409 and creates nothing (run it inside the caller's transaction to keep that true).
 */
export async function createTags(
  db: Db,
  organizationId: string,
  batch: TagBatch,
  now: Date,
): Promise<TagRow[]> {
  const alphaCode = batch.alphaCode.toUpperCase()
  if (!/^[A-Z]{2,4}$/.test(alphaCode))
    throw new Error(`alpha code must be 2 to 4 letters: ${batch.alphaCode}`)
  const last = batch.startNumber + batch.count - 1
  if (
    !Number.isInteger(batch.startNumber) ||
    batch.startNumber < 0 ||
    batch.count < 1 ||
    last > MAX_TAG_NUMBER
  ) {
    throw new Error(`tag numbers must stay within 0–${MAX_TAG_NUMBER}`)
  }
  const rows = Array.from({ length: batch.count }, (_, index) =>
    tagRow(organizationId, alphaCode, batch.startNumber + index, batch, now),
  )
  return db.transaction(async (tx) => {
    const created: TagRow[] = []
    for (let start = 0; start < rows.length; start += TAG_INSERT_BATCH) {
      const inserted = await tx
        .insert(tags)
        .values(rows.slice(start, start + TAG_INSERT_BATCH))
        .onConflictDoNothing({ target: [tags.organizationId, tags.code] })
        .returning()
      created.push(...inserted)
    }
    if (created.length !== rows.length) {
      throw new ApiError(
        409,
        ErrorCode.conflict,
        `Some codes from ${tagCode(alphaCode, batch.startNumber)} to ${tagCode(alphaCode, last)} already exist.`,
      )
    }
    await appendEvent(tx, {
      organizationId,
      kind: 'tags.created',
      actorId: null,
      serverTime: now,
      tagIds: created.map((tag) => tag.id),
      payload: { count: created.length },
    })
    return created
  })
}

/** The tag of a QR code: its current public id, or one it had before a replacement (an old, lost print). */
export async function findTagByPublicId(db: Db, publicId: string): Promise<TagRow | null> {
  const [row] = await db.select().from(tags).where(eq(tags.publicId, publicId))
  if (row) return row
  const [retired] = await db
    .select({ tag: tags })
    .from(tagRetiredPublicIds)
    .innerJoin(tags, eq(tags.id, tagRetiredPublicIds.tagId))
    .where(eq(tagRetiredPublicIds.publicId, publicId))
  return retired?.tag ?? null
}
