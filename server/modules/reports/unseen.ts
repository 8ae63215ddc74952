import { and, asc, eq, isNull, type SQL, sql } from 'drizzle-orm'
import { UNSEEN_DAYS_DEFAULT, type UnseenKeychain, type UnseenQuery } from '../../../contract/reports.ts'
import { shiftCalendarDay } from '../../../contract/transfers.ts'
import type { Db } from '../../db/client.ts'
import { keychains, scans, users } from '../../db/schema.ts'
import { cursorInstant, pageLimit, toPage } from '../../http/pagination.ts'
import { toPerson } from '../../shared/person.ts'
import { calendarDayIn, startOfDayIn } from '../../shared/time-zones.ts'
import { getMember } from '../members/service.ts'
import { csvStream, REPORT_BATCH } from './csv.ts'
import { cursorKey } from './cursor.ts'
import { qualified } from './qualified.ts'

export type UnseenScope = { organizationId: string; timeZone: string; now: Date; query: UnseenQuery }

/** Where the report goes on: after a keychain last scanned at `lastScan` (null: never), then by id. */
type After = { lastScan: Date | null; id: string }

/** No scan in the last N days, today included: before the start of the day N − 1 days ago, in the zone. */
function unseenCutoff(scope: Pick<UnseenScope, 'timeZone' | 'now'>, days: number): Date {
  const today = calendarDayIn(scope.timeZone, scope.now)
  return startOfDayIn(scope.timeZone, shiftCalendarDay(today, 1 - days))
}

/**
 * The organization's keychains with the last scan of any of their tags by a member of it (a `resolved` scan:
 * strangers' scans of a found tag do not count), keeping those not scanned since the cutoff, never scanned first.
 * A keychain without a tag cannot be scanned, so it is listed as never scanned.
 */
function unseenRows(db: Db, scope: UnseenScope, after: After | null, size: number) {
  const cutoff = unseenCutoff(scope, scope.query.days ?? UNSEEN_DAYS_DEFAULT)
  const seen = db
    .select({
      id: keychains.id,
      name: keychains.name,
      custodianId: keychains.custodianId,
      // Scans of its tags by members of the tag's organization (`resolved`; a stranger's scan is `foreign`).
      lastScan: sql<Date | null>`(select max(s.server_time) from keys k
        join scans s on s.tag_id = k.tag_id and s.result = 'resolved'
        where k.keychain_id = ${qualified(keychains, keychains.id)})`
        .mapWith(scans.serverTime)
        .as('last_scan'),
    })
    .from(keychains)
    .where(
      and(
        eq(keychains.organizationId, scope.organizationId),
        isNull(keychains.deletedAt),
        scope.query.person ? eq(keychains.custodianId, scope.query.person) : undefined,
      ),
    )
    .as('seen')
  let afterCursor: SQL | undefined
  if (after?.lastScan === null)
    afterCursor = sql`((${seen.lastScan} is null and ${seen.id} > ${after.id}::uuid) or ${seen.lastScan} is not null)`
  else if (after?.lastScan)
    afterCursor = sql`(${seen.lastScan} > ${after.lastScan.toISOString()}::timestamptz
      or (${seen.lastScan} = ${after.lastScan.toISOString()}::timestamptz and ${seen.id} > ${after.id}::uuid))`
  return db
    .select({
      id: seen.id,
      name: seen.name,
      lastScan: seen.lastScan,
      custodian: users,
      tagCodes: sql<string[]>`coalesce((select json_agg(t.code order by t.code) from keys k
        join tags t on t.id = k.tag_id where k.keychain_id = ${qualified('seen', 'id')}), '[]'::json)`,
    })
    .from(seen)
    .leftJoin(users, eq(users.id, seen.custodianId))
    .where(
      and(
        sql`(${seen.lastScan} is null or ${seen.lastScan} < ${cutoff.toISOString()}::timestamptz)`,
        afterCursor,
      ),
    )
    .orderBy(sql`${seen.lastScan} asc nulls first`, asc(seen.id))
    .limit(size)
}

type Row = Awaited<ReturnType<typeof unseenRows>>[number]

const toUnseen = (row: Row): UnseenKeychain => ({
  id: row.id,
  name: row.name,
  custodian: row.custodian ? toPerson(row.custodian) : null,
  tagCodes: row.tagCodes,
  lastScanAt: row.lastScan?.toISOString() ?? null,
})

function cursorOf(cursor: string): After {
  const [lastScan, id] = cursorKey(cursor, 2) as [string, string]
  return { lastScan: lastScan === '' ? null : cursorInstant(lastScan), id }
}

const keyOf = (row: Row) => [row.lastScan?.toISOString() ?? '', row.id]

async function checkPerson(db: Db, scope: UnseenScope) {
  if (scope.query.person) await getMember(db, scope.organizationId, scope.query.person)
}

/** `GET /reports/unseen`: a page of the keychains nobody scanned for `days` days, never scanned first. */
export async function listUnseen(db: Db, scope: UnseenScope) {
  await checkPerson(db, scope)
  const limit = pageLimit(scope.query.limit)
  const after = scope.query.cursor ? cursorOf(scope.query.cursor) : null
  const rows = await unseenRows(db, scope, after, limit + 1)
  return toPage(rows, limit, keyOf, toUnseen)
}

export const UNSEEN_CSV_COLUMNS = [
  'keychain_id',
  'keychain_name',
  'custodian_email',
  'custodian_name',
  'tag_codes',
  'last_scan_at',
] as const

/** `GET /reports/unseen/export`: the whole view as CSV, in batches. */
export async function unseenCsv(db: Db, scope: UnseenScope) {
  await checkPerson(db, scope)
  return csvStream<After>(UNSEEN_CSV_COLUMNS, async (after) => {
    const rows = await unseenRows(db, scope, after, REPORT_BATCH)
    const last = rows.at(-1)
    return {
      records: rows.map((row) => [
        row.id,
        row.name,
        row.custodian?.email ?? '',
        row.custodian ? `${row.custodian.firstName} ${row.custodian.lastName}`.trim() : '',
        row.tagCodes.join(' '),
        row.lastScan?.toISOString() ?? '',
      ]),
      next: rows.length < REPORT_BATCH || !last ? null : { lastScan: last.lastScan, id: last.id },
    }
  })
}
