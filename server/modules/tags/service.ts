import { and, asc, between, eq, max } from 'drizzle-orm'
import { ErrorCode } from '../../../contract/errors.ts'
import type { Tag } from '../../../contract/tags.ts'
import type { Db } from '../../db/client.ts'
import { type TagRow, tagRetiredPublicIds, tags } from '../../db/schema.ts'
import { ApiError } from '../../http/errors.ts'
import { appendEvent } from '../events/log.ts'
import { newPublicId, tagCode } from './public-id.ts'

export const MAX_TAG_NUMBER = 99_999
const INSERT_BATCH = 500

/** Fewer than `count` numbers of `alphaCode` are left free in the organization (99,999 at most per code). */
export class TagNumbersExhausted extends Error {
  constructor(alphaCode: string, count: number) {
    super(`no ${count} free tag numbers left for ${alphaCode}`)
  }
}

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
function tagRow(
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
    for (let start = 0; start < rows.length; start += INSERT_BATCH) {
      const inserted = await tx
        .insert(tags)
        .values(rows.slice(start, start + INSERT_BATCH))
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

/**
 * The numbers a paid order line's tags get: its own range from `startNumber` when none of it is taken in the
 * organization; otherwise numbering continues after the highest number of that alpha code (so paying never
 * fails on a taken code). Should that run past 99999, the lowest free numbers are used. `reserved` holds
 * numbers of the same alpha code that earlier lines of the same cart or order will take first: the preview
 * (`cart/tag-numbers.ts`) plans with them, so it shows what paying will really print.
 */
export async function orderTagNumbers(
  db: Db,
  organizationId: string,
  input: { alphaCode: string; startNumber: number; count: number },
  reserved: readonly number[] = [],
): Promise<number[]> {
  const { alphaCode, startNumber, count } = input
  const range = (first: number) => Array.from({ length: count }, (_, index) => first + index)
  const sameCode = and(eq(tags.organizationId, organizationId), eq(tags.alphaCode, alphaCode))
  const last = startNumber + count - 1
  const [taken] = await db
    .select({ id: tags.id })
    .from(tags)
    .where(and(sameCode, between(tags.number, startNumber, last)))
    .limit(1)
  const reservedInRange = reserved.some((number) => number >= startNumber && number <= last)
  if (!taken && !reservedInRange && last <= MAX_TAG_NUMBER) return range(startNumber)
  const [highest] = await db
    .select({ n: max(tags.number) })
    .from(tags)
    .where(sameCode)
  const next = Math.max(highest?.n ?? 0, ...reserved) + 1
  if (next + count - 1 <= MAX_TAG_NUMBER) return range(next)
  const used = new Set(
    (await db.select({ n: tags.number }).from(tags).where(sameCode).orderBy(asc(tags.number))).map(
      (row) => row.n,
    ),
  )
  for (const number of reserved) used.add(number)
  const free: number[] = []
  for (let number = 1; number <= MAX_TAG_NUMBER && free.length < count; number += 1) {
    if (!used.has(number)) free.push(number)
  }
  if (free.length < count) throw new TagNumbersExhausted(alphaCode, count)
  return free
}

/**
 * Creates a paid order line's tags (numbers from `orderTagNumbers`), linked to the order. Runs in the paying
 * transaction, with the organization row locked so two orders paid at once cannot pick the same numbers.
 */
export async function createOrderTags(
  tx: Db,
  organizationId: string,
  batch: Omit<TagBatch, 'count'> & { count: number; orderId: string },
  now: Date,
): Promise<TagRow[]> {
  const alphaCode = batch.alphaCode.toUpperCase()
  const numbers = await orderTagNumbers(tx, organizationId, {
    alphaCode,
    startNumber: batch.startNumber,
    count: batch.count,
  })
  const rows = numbers.map((number) => ({
    ...tagRow(organizationId, alphaCode, number, batch, now),
    orderId: batch.orderId,
  }))
  const created: TagRow[] = []
  for (let start = 0; start < rows.length; start += INSERT_BATCH) {
    created.push(
      ...(await tx
        .insert(tags)
        .values(rows.slice(start, start + INSERT_BATCH))
        .returning()),
    )
  }
  return created
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

export const tagUrl = (publicUrl: string, publicId: string) =>
  `${publicUrl.replace(/\/+$/, '')}/tags/${publicId}`

export type TagKeyLink = { id: string; name: string; keychainId: string; keychainName: string } | null

/** What a tag's answer is made of. */
export type TagFields = Pick<
  TagRow,
  'id' | 'publicId' | 'code' | 'name' | 'foregroundColor' | 'backgroundColor' | 'createdAt'
>

export function toTag(row: TagFields & { lostAt?: Date | null }, key: TagKeyLink, publicUrl: string): Tag {
  return {
    id: row.id,
    publicId: row.publicId,
    code: row.code,
    name: row.name,
    foregroundColor: row.foregroundColor,
    backgroundColor: row.backgroundColor,
    url: tagUrl(publicUrl, row.publicId),
    key,
    createdAt: row.createdAt.toISOString(),
    ...(row.lostAt ? { lostAt: row.lostAt.toISOString() } : {}),
  }
}
