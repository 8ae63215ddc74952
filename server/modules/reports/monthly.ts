import { and, eq, gte, lt, ne, type SQL, sql } from 'drizzle-orm'
import { ErrorCode } from '../../../contract/errors.ts'
import {
  MONTHLY_KINDS,
  MONTHS_MAX,
  type MonthlyActivity,
  type MonthlyKind,
  type MonthlyQuery,
  monthSpan,
} from '../../../contract/reports.ts'
import type { Db } from '../../db/client.ts'
import { organizationEvents, scans, tags } from '../../db/schema.ts'
import { ApiError } from '../../http/errors.ts'
import { calendarDayIn, zonedMidnight } from '../../shared/time-zones.ts'
import { csvText } from './csv.ts'

export type MonthlyScope = { organizationId: string; timeZone: string; now: Date; query: MonthlyQuery }

/** `YYYY-MM` `count` months after `month` (negative: before). */
function shiftMonth(month: string, count: number): string {
  const index = Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1 + count
  return `${String(Math.floor(index / 12)).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}`
}

/** The months asked for: both given, or from one of them, or the twelve up to this one (organization's zone). */
export function monthRange(scope: Pick<MonthlyScope, 'timeZone' | 'now' | 'query'>): string[] {
  const { from, to } = scope.query
  const last =
    to ?? (from ? shiftMonth(from, MONTHS_MAX - 1) : calendarDayIn(scope.timeZone, scope.now).slice(0, 7))
  const first = from ?? shiftMonth(last, -11)
  const span = monthSpan(first, last)
  if (span < 1 || span > MONTHS_MAX) {
    const message =
      span < 1 ? 'The last month comes before the first.' : `At most ${MONTHS_MAX} months at a time.`
    throw new ApiError(400, ErrorCode.validation, message, { issues: [{ path: 'to', message }] })
  }
  return Array.from({ length: span }, (_, n) => shiftMonth(first, n))
}

/** The instant each month starts, and the one after the last ends, in the zone. */
function boundaries(timeZone: string, months: string[]): Date[] {
  const start = (month: string) =>
    zonedMidnight(timeZone, Number(month.slice(0, 4)), Number(month.slice(5, 7)), 1)
  return [...months.map(start), start(shiftMonth(months.at(-1)!, 1))]
}

/** `width_bucket` over the months' boundaries: 1 for the first month, 2 for the second… */
const bucketOf = (column: SQL | typeof scans.serverTime, bounds: Date[]) =>
  sql<number>`width_bucket(${column}, array[${sql.join(
    bounds.map((bound) => sql`${bound.toISOString()}::timestamptz`),
    sql`, `,
  )}])`.mapWith(Number)

/**
 * `GET /reports/monthly`: per calendar month of the organization's zone, its ledger entries by kind and the scans
 * of its tags by its members. Two grouped statements, whatever the number of entries.
 */
export async function monthlyActivity(db: Db, scope: MonthlyScope): Promise<MonthlyActivity> {
  const months = monthRange(scope)
  const bounds = boundaries(scope.timeZone, months)
  const [start, end] = [bounds[0]!, bounds.at(-1)!]
  const eventBucket = bucketOf(sql`${organizationEvents.serverTime}`, bounds)
  const entries = await db
    .select({
      bucket: eventBucket,
      kind: organizationEvents.kind,
      count: sql<number>`count(*)`.mapWith(Number),
    })
    .from(organizationEvents)
    .where(
      and(
        eq(organizationEvents.organizationId, scope.organizationId),
        ne(organizationEvents.kind, 'scan.recorded'),
        gte(organizationEvents.serverTime, start),
        lt(organizationEvents.serverTime, end),
      ),
    )
    .groupBy(sql`1`, sql`2`) // by position: the bucket's boundaries are parameters, twice written they differ
  const scanBucket = bucketOf(sql`${scans.serverTime}`, bounds)
  const scanCounts = await db
    .select({ bucket: scanBucket, count: sql<number>`count(*)`.mapWith(Number) })
    .from(scans)
    .innerJoin(tags, eq(tags.id, scans.tagId))
    .where(
      and(
        eq(tags.organizationId, scope.organizationId),
        eq(scans.result, 'resolved'),
        gte(scans.serverTime, start),
        lt(scans.serverTime, end),
      ),
    )
    .groupBy(sql`1`)
  const result: Array<{
    month: string
    scans: number
    entries: number
    byKind: Record<MonthlyKind, number>
  }> = months.map((month) => ({
    month,
    scans: 0,
    entries: 0,
    byKind: Object.fromEntries(MONTHLY_KINDS.map((kind) => [kind, 0])) as Record<MonthlyKind, number>,
  }))
  for (const row of entries) {
    const month = result[row.bucket - 1]
    if (!month || !(MONTHLY_KINDS as readonly string[]).includes(row.kind)) continue
    month.byKind[row.kind as MonthlyKind] += row.count
    month.entries += row.count
  }
  for (const row of scanCounts) {
    const month = result[row.bucket - 1]
    if (month) month.scans += row.count
  }
  return { from: months[0]!, to: months.at(-1)!, months: result }
}

export const MONTHLY_CSV_COLUMNS = ['month', 'scans', 'entries', ...MONTHLY_KINDS] as const

/** `GET /reports/monthly/export`: the same months as CSV (at most 36 rows: one piece, no batches). */
export async function monthlyCsv(db: Db, scope: MonthlyScope): Promise<string> {
  const { months } = await monthlyActivity(db, scope)
  return csvText(
    months.map((month) => [
      month.month,
      month.scans,
      month.entries,
      ...MONTHLY_KINDS.map((kind) => month.byKind[kind]),
    ]),
    MONTHLY_CSV_COLUMNS,
  )
}
