import { and, eq, gt, or, type SQL, sql } from 'drizzle-orm'
import { transfers } from '../../db/schema.ts'
import { cursorInstant, decodeCursor, isUuid, malformedCursor } from '../../http/pagination.ts'

/** The key (first strings) and id (last) a report's cursor holds; anything else is the usual 400. */
export function cursorKey(cursor: string, size: number): string[] {
  const key = decodeCursor(cursor, size)
  if (!isUuid(key.at(-1)!)) throw malformedCursor()
  return key
}

/** The (instant, id) a cursor of a report on transfers holds: where its window starts or ends, and its id. */
export function instantCursor(cursor: string): [Date, string] {
  const [instant, id] = cursorKey(cursor, 2) as [string, string]
  return [cursorInstant(instant), id]
}

/** The transfers after `after` in the ascending order of `column` (an instant of their window), then the id. */
export function transfersAfter(
  column: typeof transfers.startsAt | typeof transfers.endsAt,
  after: [Date, string] | null,
): SQL | undefined {
  if (!after) return undefined
  const [instant, id] = after
  return or(gt(column, instant), and(eq(column, instant), sql`${transfers.id} > ${id}::uuid`))
}
