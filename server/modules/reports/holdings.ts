import { and, asc, eq, isNull, sql } from 'drizzle-orm'
import type { Member } from '../../../contract/organizations.ts'
import type { HeldKey, HeldKeychain, HoldingsQuery, OpenTransfer } from '../../../contract/reports.ts'
import { isExpired, transferStatus } from '../../../contract/transfer-state.ts'
import { RETURN_GRACE_MS } from '../../../contract/transfers.ts'
import type { Db } from '../../db/client.ts'
import { custodyLog, keychains, transfers } from '../../db/schema.ts'
import { pageLimit, toPage } from '../../http/pagination.ts'
import { openWhere } from '../../shared/transfer-conditions.ts'
import { getMember } from '../members/service.ts'
import { type CsvBatch, csvStream, REPORT_BATCH } from './csv.ts'
import { cursorKey, instantCursor, transfersAfter } from './cursor.ts'
import { qualified } from './qualified.ts'

const keychainId = qualified(keychains, keychains.id)

export type HoldingsScope = { organizationId: string; personId: string; now: Date }

/** The person the report is about: a member of the organization, whatever their status; anyone else is a 404. */
const reportedPerson = (db: Db, scope: HoldingsScope): Promise<Member> =>
  getMember(db, scope.organizationId, scope.personId)

/** Up to `size` keychains in the person's custody after `after` (lower(name), id), with keys and transfer. */
function heldKeychains(db: Db, scope: HoldingsScope, after: [string, string] | null, size: number) {
  const grace = new Date(scope.now.getTime() - RETURN_GRACE_MS)
  return db
    .select({
      id: keychains.id,
      name: keychains.name,
      sortName: sql<string>`lower(${keychains.name})`,
      since: sql<Date | null>`(select max(c.at) from custody_log c
        where c.keychain_id = ${keychainId} and c.to_user_id = ${scope.personId})`.mapWith(custodyLog.at),
      keys: sql<HeldKey[]>`coalesce((
        select json_agg(json_build_object('name', k.name, 'type', k.type, 'tagCode', t.code) order by k.seq)
        from keys k left join tags t on t.id = k.tag_id
        where k.keychain_id = ${keychainId}), '[]'::json)`,
      dueBack: sql<HeldKeychain['dueBack']>`(
        select json_build_object('transferId', tr.id, 'toDate', tr.to_date,
          'overdue', tr.ends_at <= ${grace.toISOString()}::timestamptz)
        from transfers tr
        where tr.keychain_id = ${keychainId} and tr.status = 'TRANSFERRED' and tr.recipient_id = ${scope.personId}
        limit 1)`,
    })
    .from(keychains)
    .where(
      and(
        eq(keychains.organizationId, scope.organizationId),
        eq(keychains.custodianId, scope.personId),
        isNull(keychains.deletedAt),
        after
          ? sql`(lower(${keychains.name}), ${keychains.id}) > (${after[0]}, ${after[1]}::uuid)`
          : undefined,
      ),
    )
    .orderBy(asc(sql`lower(${keychains.name})`), asc(keychains.id))
    .limit(size)
}

type HeldRow = Awaited<ReturnType<typeof heldKeychains>>[number]

const toHeld = (row: HeldRow): HeldKeychain => ({
  id: row.id,
  name: row.name,
  since: row.since?.toISOString() ?? null,
  keys: row.keys,
  dueBack: row.dueBack,
})

/** `GET /reports/holdings`: who the person is, and a page of the keychains they hold, by name. */
export async function listHoldings(db: Db, scope: HoldingsScope, query: HoldingsQuery) {
  const person = await reportedPerson(db, scope)
  const limit = pageLimit(query.limit)
  const after = query.cursor ? (cursorKey(query.cursor, 2) as [string, string]) : null
  const rows = await heldKeychains(db, scope, after, limit + 1)
  return { person, ...toPage(rows, limit, (row) => [row.sortName, row.id], toHeld) }
}

/** Up to `size` open transfers addressed to the person, soonest window first, after (startsAt, id). */
function openTransfers(db: Db, scope: HoldingsScope, after: [Date, string] | null, size: number) {
  return db
    .select({ transfer: transfers, currentName: keychains.name })
    .from(transfers)
    .leftJoin(keychains, eq(keychains.id, transfers.keychainId))
    .where(
      and(
        eq(transfers.organizationId, scope.organizationId),
        eq(transfers.recipientId, scope.personId),
        openWhere(scope.now),
        transfersAfter(transfers.startsAt, after),
      ),
    )
    .orderBy(asc(transfers.startsAt), asc(transfers.id))
    .limit(size)
}

type TransferRowOf = Awaited<ReturnType<typeof openTransfers>>[number]

const toOpenTransfer =
  (now: Date) =>
  ({ transfer, currentName }: TransferRowOf): OpenTransfer => ({
    id: transfer.id,
    keychainId: transfer.keychainId,
    keychainName: currentName ?? transfer.keychainName,
    fromDate: transfer.fromDate,
    toDate: transfer.toDate,
    status: transferStatus(transfer, now),
    expired: isExpired(transfer, now),
  })

const windowKey = ({ transfer }: TransferRowOf) => [transfer.startsAt.toISOString(), transfer.id]

/** `GET /reports/holdings/transfers`: the person's open transfers (scheduled, out, late), soonest first. */
export async function listOpenTransfers(db: Db, scope: HoldingsScope, query: HoldingsQuery) {
  await reportedPerson(db, scope)
  const limit = pageLimit(query.limit)
  const after = query.cursor ? instantCursor(query.cursor) : null
  const rows = await openTransfers(db, scope, after, limit + 1)
  return toPage(rows, limit, windowKey, toOpenTransfer(scope.now))
}

export const HOLDINGS_CSV_COLUMNS = [
  'person_email',
  'section',
  'keychain_id',
  'keychain_name',
  'held_since',
  'key_name',
  'key_type',
  'tag_code',
  'transfer_id',
  'transfer_status',
  'from_date',
  'to_date',
  'overdue',
] as const

const yesNo = (value: boolean) => (value ? 'yes' : 'no')

/** One record per key of a held keychain (one for a keychain without keys). */
function keychainRecords(email: string, row: HeldRow): unknown[][] {
  const held = toHeld(row)
  const due = held.dueBack
  const keyRows: Array<HeldKey | null> = held.keys.length > 0 ? held.keys : [null]
  return keyRows.map((key) => [
    email,
    'keychain',
    held.id,
    held.name,
    held.since ?? '',
    key?.name ?? '',
    key?.type ?? '',
    key?.tagCode ?? '',
    due?.transferId ?? '',
    due ? 'TRANSFERRED' : '',
    '',
    due?.toDate ?? '',
    due ? yesNo(due.overdue) : '',
  ])
}

function transferRecord(email: string, transfer: OpenTransfer): unknown[] {
  return [
    email,
    'transfer',
    transfer.keychainId,
    transfer.keychainName,
    '',
    '',
    '',
    '',
    transfer.id,
    transfer.status,
    transfer.fromDate,
    transfer.toDate,
    yesNo(transfer.expired),
  ]
}

type HoldingsCursor =
  | { section: 'keychains'; after: [string, string] | null }
  | { section: 'transfers'; after: [Date, string] | null }

/**
 * `GET /reports/holdings/export`: the departure report as CSV, the keychains the person holds (one record per
 * key) then the transfers addressed to them, each read in batches. The person is checked before streaming, so a
 * stranger is a 404, not an empty file.
 */
export async function holdingsCsv(db: Db, scope: HoldingsScope) {
  const { email } = await reportedPerson(db, scope)
  return csvStream<HoldingsCursor>(
    HOLDINGS_CSV_COLUMNS,
    async (cursor): Promise<CsvBatch<HoldingsCursor>> => {
      const at = cursor ?? { section: 'keychains', after: null }
      if (at.section === 'keychains') {
        const rows = await heldKeychains(db, scope, at.after, REPORT_BATCH)
        const last = rows.at(-1)
        return {
          records: rows.flatMap((row) => keychainRecords(email, row)),
          next:
            rows.length < REPORT_BATCH || !last
              ? { section: 'transfers', after: null }
              : { section: 'keychains', after: [last.sortName, last.id] },
        }
      }
      const rows = await openTransfers(db, scope, at.after, REPORT_BATCH)
      const last = rows.at(-1)
      return {
        records: rows.map((row) => transferRecord(email, toOpenTransfer(scope.now)(row))),
        next:
          rows.length < REPORT_BATCH || !last
            ? null
            : { section: 'transfers', after: [last.transfer.startsAt, last.transfer.id] },
      }
    },
  )
}
