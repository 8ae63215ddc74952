import { and, asc, eq, lte } from 'drizzle-orm'
import type { OverdueQuery, OverdueTransfer } from '../../../contract/reports.ts'
import { RETURN_GRACE_MS } from '../../../contract/transfers.ts'
import type { Db } from '../../db/client.ts'
import { keychains, transfers, users } from '../../db/schema.ts'
import { pageLimit, toPage } from '../../http/pagination.ts'
import { toPerson } from '../../shared/person.ts'
import { calendarDayIn } from '../../shared/time-zones.ts'
import { getMember } from '../members/service.ts'
import { csvStream, REPORT_BATCH } from './csv.ts'
import { instantCursor, transfersAfter } from './cursor.ts'

const DAY_MS = 24 * 60 * 60 * 1000

export type OverdueScope = { organizationId: string; timeZone: string; now: Date; query: OverdueQuery }

/**
 * Overdue: picked up (TRANSFERRED, so RETURNING past its to-date) and still out a grace day after the start of
 * its to-date, the same rule as the transfers' `expired` flag.
 */
function overdueRows(db: Db, scope: OverdueScope, after: [Date, string] | null, size: number) {
  return db
    .select({ transfer: transfers, currentName: keychains.name, recipient: users })
    .from(transfers)
    .innerJoin(users, eq(users.id, transfers.recipientId))
    .leftJoin(keychains, eq(keychains.id, transfers.keychainId))
    .where(
      and(
        eq(transfers.organizationId, scope.organizationId),
        eq(transfers.status, 'TRANSFERRED'),
        lte(transfers.endsAt, new Date(scope.now.getTime() - RETURN_GRACE_MS)),
        scope.query.person ? eq(transfers.recipientId, scope.query.person) : undefined,
        transfersAfter(transfers.endsAt, after),
      ),
    )
    .orderBy(asc(transfers.endsAt), asc(transfers.id))
    .limit(size)
}

type Row = Awaited<ReturnType<typeof overdueRows>>[number]

function toOverdue(scope: OverdueScope) {
  const today = calendarDayIn(scope.timeZone, scope.now)
  const daysSince = (day: string) =>
    Math.round((Date.parse(`${today}T00:00:00Z`) - Date.parse(`${day}T00:00:00Z`)) / DAY_MS)
  return ({ transfer, currentName, recipient }: Row): OverdueTransfer => ({
    id: transfer.id,
    keychainId: transfer.keychainId,
    keychainName: currentName ?? transfer.keychainName,
    recipient: toPerson(recipient),
    fromDate: transfer.fromDate,
    toDate: transfer.toDate,
    pickedUpAt: transfer.pickedUpAt?.toISOString() ?? null,
    daysLate: daysSince(transfer.toDate),
  })
}

/** A person named in the filter must be a member of the organization: anyone else is a 404. */
async function checkPerson(db: Db, scope: OverdueScope) {
  if (scope.query.person) await getMember(db, scope.organizationId, scope.query.person)
}

/** `GET /reports/overdue`: a page of the overdue transfers, most overdue first. */
export async function listOverdue(db: Db, scope: OverdueScope) {
  await checkPerson(db, scope)
  const limit = pageLimit(scope.query.limit)
  const after = scope.query.cursor ? instantCursor(scope.query.cursor) : null
  const rows = await overdueRows(db, scope, after, limit + 1)
  return toPage(rows, limit, ({ transfer }) => [transfer.endsAt.toISOString(), transfer.id], toOverdue(scope))
}

export const OVERDUE_CSV_COLUMNS = [
  'transfer_id',
  'keychain_id',
  'keychain_name',
  'recipient_email',
  'recipient_name',
  'from_date',
  'to_date',
  'picked_up_at',
  'days_late',
] as const

/** `GET /reports/overdue/export`: every overdue transfer of the view as CSV, in batches. */
export async function overdueCsv(db: Db, scope: OverdueScope) {
  await checkPerson(db, scope)
  const view = toOverdue(scope)
  return csvStream<[Date, string]>(OVERDUE_CSV_COLUMNS, async (after) => {
    const rows = await overdueRows(db, scope, after, REPORT_BATCH)
    const last = rows.at(-1)
    return {
      records: rows.map((row) => {
        const item = view(row)
        return [
          item.id,
          item.keychainId,
          item.keychainName,
          item.recipient.email,
          `${item.recipient.firstName} ${item.recipient.lastName}`.trim(),
          item.fromDate,
          item.toDate,
          item.pickedUpAt ?? '',
          item.daysLate,
        ]
      }),
      next: rows.length < REPORT_BATCH || !last ? null : [last.transfer.endsAt, last.transfer.id],
    }
  })
}
