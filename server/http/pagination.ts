import { PAGE_SIZE_DEFAULT } from '../../contract/common.ts'
import { ErrorCode } from '../../contract/errors.ts'
import { ApiError } from './errors.ts'

export const malformedCursor = () =>
  new ApiError(400, ErrorCode.validation, 'Malformed cursor.', {
    issues: [{ path: 'cursor', message: 'Malformed cursor.' }],
  })

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Whether a text is a uuid as the database writes one (a cursor's row id, an id in free JSON). */
export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value)

/** An opaque cursor: the sort key of the last row of a page, as base64url JSON. */
export function encodeCursor(key: readonly string[]): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url')
}

/** The sort key in a cursor, which must hold `size` strings without U+0000; anything else is a 400. */
export function decodeCursor(cursor: string, size: number): string[] {
  let value: unknown
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
  } catch {
    throw malformedCursor()
  }
  const fits = (item: unknown) => typeof item === 'string' && !item.includes('\u0000')
  if (!Array.isArray(value) || value.length !== size || !value.every(fits)) {
    throw malformedCursor()
  }
  return value as string[]
}

// Date.UTC maps years 0–99 to 1900–1999; setUTCFullYear does not.
const FIRST_STORABLE_MS = new Date(0).setUTCFullYear(1, 0, 1)
const LAST_STORABLE_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999)

/**
 * A time held in a cursor, exactly as the server wrote it (`toISOString()` of a stored time, years 1 to 9999);
 * anything else (a date JavaScript would roll over or PostgreSQL refuse, such as year 0) is the usual 400.
 */
export function cursorInstant(value: string): Date {
  const at = new Date(value)
  const ms = at.getTime()
  if (Number.isNaN(ms) || ms < FIRST_STORABLE_MS || ms > LAST_STORABLE_MS || at.toISOString() !== value)
    throw malformedCursor()
  return at
}

/**
 * Query `limit + 1` rows; this keeps `limit` of them and makes the cursor from the last kept row when there
 * was one more (null on the last page).
 */
export function toPage<Row, Item>(
  rows: Row[],
  limit: number,
  keyOf: (row: Row) => readonly string[],
  toItem: (row: Row) => Item,
): { data: Item[]; nextCursor: string | null } {
  const page = rows.slice(0, limit)
  const last = page.at(-1)
  return {
    data: page.map(toItem),
    nextCursor: rows.length > limit && last ? encodeCursor(keyOf(last)) : null,
  }
}

export const pageLimit = (limit: number | undefined) => limit ?? PAGE_SIZE_DEFAULT

/** `%`, `_` and `\` taken literally in a LIKE pattern (with the default escape character). */
export function likeContains(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`
}
