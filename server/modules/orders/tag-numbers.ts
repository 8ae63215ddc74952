import { and, asc, between, desc, eq, max } from 'drizzle-orm'
import type { TagCodeRange, TagConfiguration, TagNumbering } from '../../../contract/commerce.ts'
import type { Db } from '../../db/client.ts'
import { organizations, type TagRow, tags } from '../../db/schema.ts'
import { tagCode } from '../tags/public-id.ts'
import { MAX_TAG_NUMBER, TAG_INSERT_BATCH, type TagBatch, tagRow } from '../tags/service.ts'

/** A TAG line to number: its alpha code, requested first number and count. */
export type TagLinePlan = { alphaCode: string; startNumber: number; count: number }

/**
 * The numbers each line would get if paid now, in order: the algorithm paying runs (`orderTagNumbers`), each
 * line seeing the numbers the lines before it take. Null for a line that no longer finds enough free numbers.
 */
async function plannedTagNumbers(
  db: Db,
  organizationId: string,
  lines: readonly TagLinePlan[],
): Promise<Array<number[] | null>> {
  const reserved = new Map<string, number[]>()
  const planned: Array<number[] | null> = []
  for (const line of lines) {
    const alphaCode = line.alphaCode.toUpperCase()
    const before = reserved.get(alphaCode) ?? []
    const numbers = await numbersIfFree(db, organizationId, { ...line, alphaCode }, before)
    if (numbers) reserved.set(alphaCode, [...before, ...numbers])
    planned.push(numbers)
  }
  return planned
}

async function numbersIfFree(
  db: Db,
  organizationId: string,
  line: TagLinePlan,
  reserved: readonly number[],
): Promise<number[] | null> {
  try {
    return await orderTagNumbers(db, organizationId, line, reserved)
  } catch (error) {
    if (error instanceof TagNumbersExhausted) return null
    throw error
  }
}

/** `[61, 62, 63, 70]` of `DEM` → `DEM-00061`–`DEM-00063` (3) and `DEM-00070` (1). */
export function codeRanges(alphaCode: string, numbers: readonly number[]): TagCodeRange[] {
  const ranges: TagCodeRange[] = []
  let start = 0
  for (let index = 1; index <= numbers.length; index += 1) {
    // Past the end, `numbers[index]` is undefined: the last run is closed there.
    if (numbers[index] === numbers[index - 1]! + 1) continue
    ranges.push({
      first: tagCode(alphaCode, numbers[start]!),
      last: tagCode(alphaCode, numbers[index - 1]!),
      count: index - start,
    })
    start = index
  }
  return ranges
}

type Line = { productType: string; quantity: number; configuration: unknown }

/** What a cart or order line numbers: null for plans and reprints (a reprint keeps its tag's code). */
export function tagLinePlan(line: Line): TagLinePlan | null {
  const config = line.configuration as Partial<TagConfiguration>
  return line.productType === 'TAG' && config.alphaCode && config.replacesTagId === undefined
    ? { alphaCode: config.alphaCode, startNumber: config.startNumber ?? 1, count: line.quantity }
    : null
}

/** The planned codes of a cart's or an unpaid order's lines (undefined for plans and reprints). */
export async function plannedLineCodes(
  db: Db,
  organizationId: string,
  lines: readonly Line[],
): Promise<Array<TagCodeRange[] | undefined>> {
  const numbered = lines.map(tagLinePlan)
  const plans = numbered.filter((line): line is TagLinePlan => line !== null)
  const planned = await plannedTagNumbers(db, organizationId, plans)
  let next = 0
  return numbered.map((line) => {
    if (!line) return undefined
    const numbers = planned[next++]
    return numbers ? codeRanges(line.alphaCode.toUpperCase(), numbers) : []
  })
}

/**
 * `Agence Démo` → `AD`, `Cave` → `CAV`, `Société Générale des Eaux` → `SGD`: initials of up to three words (the
 * first three letters of a one-word name), accents dropped; `TAG` when the name has no usable letters.
 */
export function alphaCodeFromName(name: string): string {
  const words = name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .split(/[^A-Z]+/)
    .filter((word) => word.length > 0)
  const initials = words
    .slice(0, 3)
    .map((word) => word[0])
    .join('')
  if (initials.length >= 2) return initials
  const single = (words[0] ?? '').slice(0, 3)
  return single.length >= 2 ? single : 'TAG'
}

/** The alpha code a new order starts from: the organization's latest tag's, else one made from its name. */
async function suggestedAlphaCode(db: Db, organizationId: string): Promise<string> {
  const [latest] = await db
    .select({ alphaCode: tags.alphaCode })
    .from(tags)
    .where(eq(tags.organizationId, organizationId))
    .orderBy(desc(tags.createdAt), desc(tags.number))
    .limit(1)
  if (latest) return latest.alphaCode
  const [organization] = await db
    .select({ name: organizations.name })
    .from(organizations)
    .where(eq(organizations.id, organizationId))
  return alphaCodeFromName(organization?.name ?? '')
}

/**
 * What the order form shows before anything is added: the alpha code to propose, where a new series of it
 * starts, and the codes `quantity` tags from `startNumber` would really carry after the cart's lines.
 */
export async function tagNumbering(
  db: Db,
  organizationId: string,
  cartLines: readonly TagLinePlan[],
  query: { alphaCode?: string; startNumber?: number; quantity?: number },
): Promise<TagNumbering> {
  const alphaCode = query.alphaCode ?? (await suggestedAlphaCode(db, organizationId))
  const [highest] = await db
    .select({ n: max(tags.number) })
    .from(tags)
    .where(and(eq(tags.organizationId, organizationId), eq(tags.alphaCode, alphaCode)))
  const planned = await plannedTagNumbers(db, organizationId, cartLines)
  const inCart = cartLines.flatMap((line, index) =>
    line.alphaCode.toUpperCase() === alphaCode ? (planned[index] ?? []) : [],
  )
  const nextNumber = Math.min(Math.max(highest?.n ?? 0, ...inCart) + 1, MAX_TAG_NUMBER)
  const line = { alphaCode, startNumber: query.startNumber ?? nextNumber, count: query.quantity ?? 1 }
  const numbers = await numbersIfFree(db, organizationId, line, inCart)
  return { alphaCode, nextNumber, codes: numbers ? codeRanges(alphaCode, numbers) : [] }
}

/** Fewer than `count` numbers of `alphaCode` are left free in the organization (99,999 at most per code). */
export class TagNumbersExhausted extends Error {
  constructor(alphaCode: string, count: number) {
    super(`no ${count} free tag numbers left for ${alphaCode}`)
  }
}

/**
 * The numbers a paid order line's tags get: its own range from `startNumber` when none of it is taken in the
 * organization; otherwise numbering continues after the highest number of that alpha code (so paying never
 * fails on a taken code). Should that run past 99999, the lowest free numbers are used. `reserved` holds
 * numbers of the same alpha code that earlier lines of the same cart or order will take first: the preview
 * (`tagNumbering` above) plans with them, so it shows what paying will really print.
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
  for (let start = 0; start < rows.length; start += TAG_INSERT_BATCH) {
    created.push(
      ...(await tx
        .insert(tags)
        .values(rows.slice(start, start + TAG_INSERT_BATCH))
        .returning()),
    )
  }
  return created
}
