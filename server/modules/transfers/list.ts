import { and, asc, desc, eq, gt, lt, lte, ne, not, or, type SQL, sql } from 'drizzle-orm'
import type { Role } from '../../../contract/permissions.ts'
import { isOpen } from '../../../contract/transfer-state.ts'
import {
  RETURN_GRACE_MS,
  type SortOrder,
  type Transfer,
  type TransferQuickFilter,
  type TransferSort,
  type TransferStatus,
} from '../../../contract/transfers.ts'
import type { Db } from '../../db/client.ts'
import { transfers } from '../../db/schema.ts'
import {
  cursorInstant,
  decodeCursor,
  isUuid,
  malformedCursor,
  pageLimit,
  toPage,
} from '../../http/pagination.ts'
import { expiredWhere, openWhere, statusWhere } from '../../shared/transfer-conditions.ts'
import {
  recipientIsMember,
  selectTransfers,
  type TransferViewRow,
  toTransfers,
} from '../../shared/transfer-view.ts'
import { overlapWhere } from './service.ts'

export type TransferPage = { data: Transfer[]; nextCursor: string | null }
type PageQuery = { cursor?: string; limit?: number }

function windowCursor(cursor: string, size: 2 | 3): { rank?: number; startsAt: Date; id: string } {
  const key = decodeCursor(cursor, size)
  const [id, startsAt] = [key.at(-1)!, cursorInstant(key.at(-2)!)]
  const rank = size === 3 ? Number(key[0]) : undefined
  // cursorInstant has refused a malformed instant already.
  if (!isUuid(id) || (rank !== undefined && rank !== 0 && rank !== 1)) throw malformedCursor()
  return { rank, startsAt, id }
}

/** The order of a list: by the window's start or end instant, then the id, descending or ascending. */
type Ordering = { sort: TransferSort; order: SortOrder }
const NEWEST_WINDOW_FIRST: Ordering = { sort: 'start', order: 'desc' }

const orderColumn = (sort: TransferSort) => (sort === 'end' ? transfers.endsAt : transfers.startsAt)

/** After (instant, id) in the given order. */
function afterInOrder(ordering: Ordering, instant: Date, id: string): SQL {
  const column = orderColumn(ordering.sort)
  if (ordering.order === 'desc') {
    return or(lt(column, instant), and(eq(column, instant), sql`${transfers.id} < ${id}`))!
  }
  return or(gt(column, instant), and(eq(column, instant), sql`${transfers.id} > ${id}`))!
}

async function windowPage(
  db: Db,
  input: {
    where: SQL | undefined
    query: PageQuery
    ordering?: Ordering
    callerId: string
    /** The caller's role in the organization of these transfers, known from the session's scope. */
    callerRole: { organizationId: string; role: Role }
    now: Date
    publicUrl: string
  },
): Promise<TransferPage> {
  const limit = pageLimit(input.query.limit)
  const ordering = input.ordering ?? NEWEST_WINDOW_FIRST
  const after = input.query.cursor ? windowCursor(input.query.cursor, 2) : null
  const direction = ordering.order === 'desc' ? desc : asc
  const rows: TransferViewRow[] = await selectTransfers(db)
    .where(and(input.where, after ? afterInOrder(ordering, after.startsAt, after.id) : undefined))
    .orderBy(direction(orderColumn(ordering.sort)), direction(transfers.id))
    .limit(limit + 1)
  const page = toPage(
    rows,
    limit,
    (row) => [
      (ordering.sort === 'end' ? row.transfer.endsAt : row.transfer.startsAt).toISOString(),
      row.transfer.id,
    ],
    (row) => row,
  )
  const roles = new Map([[input.callerRole.organizationId, input.callerRole.role]])
  const data = await toTransfers(db, page.data, input.callerId, input.now, input.publicUrl, roles)
  return { data, nextCursor: page.nextCursor }
}

/**
 * A quick filter as SQL. `today` (the organization's calendar day `today`): a window that opens or is due back
 * that day, cancelled ones aside. `overdue`: picked up and not returned `RETURN_GRACE_MS` after the to-date began.
 */
function quickFilterWhere(filter: TransferQuickFilter, today: string, now: Date): SQL {
  if (filter === 'today') {
    return and(
      or(eq(transfers.fromDate, today), eq(transfers.toDate, today)),
      ne(transfers.status, 'CANCELLED'),
    )!
  }
  return and(
    eq(transfers.status, 'TRANSFERRED'),
    lte(transfers.endsAt, new Date(now.getTime() - RETURN_GRACE_MS)),
  )!
}

/**
 * `GET /transfers`: the organization's transfers, newest window first unless `sort`/`order` say otherwise; a
 * CONTACT sees only those addressed to them. `status` filters on the computed status, `expired` on the flag,
 * `when` is a quick filter judged on `today`, the organization's calendar day.
 */
export function listOrganizationTransfers(
  db: Db,
  input: {
    organizationId: string
    caller: { userId: string; role: Role }
    query: PageQuery & {
      status?: TransferStatus
      expired?: 'true' | 'false'
      when?: TransferQuickFilter
      sort?: TransferSort
      order?: SortOrder
    }
    /** The organization's calendar day at `now` (for `when=today`). */
    today: string
    now: Date
    publicUrl: string
  },
): Promise<TransferPage> {
  const { query, now } = input
  return windowPage(db, {
    where: and(
      eq(transfers.organizationId, input.organizationId),
      input.caller.role === 'CONTACT' ? eq(transfers.recipientId, input.caller.userId) : undefined,
      query.status ? statusWhere(query.status, now) : undefined,
      query.expired ? expiredWhere(query.expired === 'true', now) : undefined,
      query.when ? quickFilterWhere(query.when, input.today, now) : undefined,
    ),
    ordering: { sort: query.sort ?? 'start', order: query.order ?? 'desc' },
    query,
    callerId: input.caller.userId,
    callerRole: { organizationId: input.organizationId, role: input.caller.role },
    now,
    publicUrl: input.publicUrl,
  })
}

/** `GET /keychains/{id}/transfers`: the keychain's transfers, newest window first. */
export function listKeychainTransfers(
  db: Db,
  input: {
    organizationId: string
    keychainId: string
    caller: { userId: string; role: Role }
    query: PageQuery
    now: Date
    publicUrl: string
  },
): Promise<TransferPage> {
  return windowPage(db, {
    where: and(
      eq(transfers.organizationId, input.organizationId),
      eq(transfers.keychainId, input.keychainId),
    ),
    query: input.query,
    callerId: input.caller.userId,
    callerRole: { organizationId: input.organizationId, role: input.caller.role },
    now: input.now,
    publicUrl: input.publicUrl,
  })
}

/** `GET /users/{id}/transfers`: the transfers addressed to a member of the organization, newest window first. */
export function listMemberTransfers(
  db: Db,
  input: {
    organizationId: string
    memberId: string
    caller: { userId: string; role: Role }
    query: PageQuery
    now: Date
    publicUrl: string
  },
): Promise<TransferPage> {
  return windowPage(db, {
    where: and(eq(transfers.organizationId, input.organizationId), eq(transfers.recipientId, input.memberId)),
    query: input.query,
    callerId: input.caller.userId,
    callerRole: { organizationId: input.organizationId, role: input.caller.role },
    now: input.now,
    publicUrl: input.publicUrl,
  })
}

/**
 * `GET /transfers/requests`: transfers addressed to the caller in every organization where they are a member
 * (not DISABLED), open ones first, then the others, newest window first within each (keyset on the rank,
 * `starts_at` and id). `open` keeps only the open ones (`true`) or the others (`false`).
 */
export async function listRequests(
  db: Db,
  input: { userId: string; query: PageQuery & { open?: 'true' | 'false' }; now: Date; publicUrl: string },
): Promise<TransferPage> {
  const { query, now } = input
  const limit = pageLimit(query.limit)
  const open = openWhere(now)
  const rank = sql<number>`(case when ${open} then 0 else 1 end)`.mapWith(Number)
  let after: SQL | undefined
  if (query.cursor) {
    const cursor = windowCursor(query.cursor, 3)
    after = or(
      sql`${rank} > ${cursor.rank}`,
      and(sql`${rank} = ${cursor.rank}`, afterInOrder(NEWEST_WINDOW_FIRST, cursor.startsAt, cursor.id)),
    )
  }
  const rows = await selectTransfers(db)
    .where(
      and(
        eq(transfers.recipientId, input.userId),
        recipientIsMember,
        query.open === 'true' ? open : query.open === 'false' ? not(open) : undefined,
        after,
      ),
    )
    .orderBy(rank, desc(transfers.startsAt), desc(transfers.id))
    .limit(limit + 1)
  const page = toPage(
    rows,
    limit,
    (row) => [isOpen(row.transfer, now) ? '0' : '1', row.transfer.startsAt.toISOString(), row.transfer.id],
    (row) => row,
  )
  return {
    data: await toTransfers(db, page.data, input.userId, now, input.publicUrl),
    nextCursor: page.nextCursor,
  }
}

/**
 * `GET /keychains/{id}/transfers/overlaps`: the keychain's transfers whose window meets `[startsAt, endsAt)` by
 * the rule `POST /keychains/{id}/transfers` refuses with (`overlapWhere`), soonest window first (at most 10).
 */
export async function listOverlappingTransfers(
  db: Db,
  input: {
    organizationId: string
    keychainId: string
    startsAt: Date
    endsAt: Date
    caller: { userId: string; role: Role }
    now: Date
    publicUrl: string
  },
): Promise<Transfer[]> {
  const rows: TransferViewRow[] = await selectTransfers(db)
    .where(
      and(
        eq(transfers.organizationId, input.organizationId),
        eq(transfers.keychainId, input.keychainId),
        overlapWhere(input.startsAt, input.endsAt, input.now),
      ),
    )
    .orderBy(asc(transfers.startsAt), asc(transfers.id))
    .limit(10)
  const roles = new Map([[input.organizationId, input.caller.role]])
  return toTransfers(db, rows, input.caller.userId, input.now, input.publicUrl, roles)
}
