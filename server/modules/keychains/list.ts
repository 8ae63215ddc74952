import {
  and,
  asc,
  desc,
  eq,
  inArray,
  isNotNull,
  isNull,
  or,
  type SQL,
  type SQLWrapper,
  sql,
} from 'drizzle-orm'
import type { KeychainFilter, KeychainSort } from '../../../contract/keychains.ts'
import type { Db } from '../../db/client.ts'
import { hooks, keychains } from '../../db/schema.ts'
import { notFound } from '../../http/errors.ts'
import {
  cursorInstant,
  decodeCursor,
  encodeCursor,
  isUuid,
  malformedCursor,
  pageLimit,
} from '../../http/pagination.ts'
import { placeSubtreeIds } from '../../shared/places.ts'
import { type SearchArms, searchArms, statusWhere } from './list-filters.ts'
import { type NameSearch, nameSearch } from './name-search.ts'
import { custodian, homeHook, homePlace, isoInstant, summaryJson } from './summary-json.ts'

export type KeychainListQuery = {
  cursor?: string
  limit?: number
  q?: string
  custodianId?: string
  placeId?: string
  sort?: KeychainSort
  status?: KeychainFilter
}

/**
 * The place order's keys: keychains without a home last, then their home's board by name (then by id, two
 * boards may share a name), the hook's position, then the name. Read through no index: the sort is in memory
 * (an organization's keychains with a home are the few hundred on its boards).
 */
const PLACE_KEYS = {
  homeless: sql<boolean>`(${homePlace.id} is null)`,
  placeName: sql<string>`coalesce(lower(${homePlace.name}), '') collate "C"`,
  placeId: sql<string>`coalesce(${homePlace.id}::text, '')`,
  position: sql<number>`coalesce(${homeHook.position}, 0)`,
}

/**
 * Each order's keyset: the columns of its index after the organization (their collation is "C": natural order,
 * the same on every database), and its direction. The cursor holds the last row's values with the order's letter.
 */
const ORDERS = {
  name: { letter: 'n', columns: [keychains.sortName, keychains.id], descending: false },
  holder: {
    letter: 'h',
    columns: [keychains.holderSort, keychains.sortName, keychains.id],
    descending: false,
  },
  changed: { letter: 'c', columns: [keychains.updatedAt, keychains.id], descending: true },
  place: {
    letter: 'p',
    columns: [
      PLACE_KEYS.homeless,
      PLACE_KEYS.placeName,
      PLACE_KEYS.placeId,
      PLACE_KEYS.position,
      keychains.sortName,
      keychains.id,
    ],
    descending: false,
  },
} as const

/** The deleted list, whatever the sort asked: newest deletion first, a walk of the deleted keychains' index. */
const DELETED_ORDER = { letter: 'd', columns: [keychains.deletedAt, keychains.id], descending: true } as const

type Order = (typeof ORDERS)[KeychainSort] | typeof DELETED_ORDER

const orderOf = (query: KeychainListQuery): Order =>
  query.status === 'deleted' ? DELETED_ORDER : ORDERS[query.sort ?? 'name']

/** The values a page goes on after, typed as their columns; a cursor of another order is a 400. */
function cursorValues(order: Order, cursor: string): SQL[] {
  const [letter, ...values] = decodeCursor(cursor, order.columns.length + 1)
  const id = values.at(-1) as string
  if (letter !== order.letter || !isUuid(id)) throw malformedCursor()
  // Each value takes its column's type in the row comparison; an instant, a flag or a number is checked first
  // (a 400, not a 500).
  return values.map((value, index) => {
    const column = order.columns[index]
    if (column === keychains.updatedAt || column === keychains.deletedAt)
      return sql`${cursorInstant(value).toISOString()}`
    if (column === PLACE_KEYS.homeless) {
      if (value !== 'true' && value !== 'false') throw malformedCursor()
      return sql`${value}::boolean`
    }
    if (column === PLACE_KEYS.position) {
      if (!/^-?\d{1,9}$/.test(value)) throw malformedCursor()
      return sql`${value}::integer`
    }
    return sql`${value}`
  })
}

function afterCursor(order: Order, cursor: string): SQL {
  const columns = sql.join(
    order.columns.map((column) => sql`${column}`),
    sql`, `,
  )
  const values = sql.join(cursorValues(order, cursor), sql`, `)
  return order.descending ? sql`(${columns}) < (${values})` : sql`(${columns}) > (${values})`
}

const orderBy = (order: Order) =>
  order.columns.map((column) => (order.descending ? desc(column) : asc(column)))

/**
 * Each row's summary as the database writes it (`summaryJson`), and the columns of its sort keys for the
 * cursor: nothing else is read, parsed or mapped per row.
 */
function selectSummaries(db: Db, now: Date | SQLWrapper) {
  return db
    .select({
      id: keychains.id,
      sortName: keychains.sortName,
      holderSort: keychains.holderSort,
      changedAt: isoInstant(keychains.updatedAt),
      deletedAt: isoInstant(keychains.deletedAt),
      placeKey: sql<string>`json_build_array(${PLACE_KEYS.homeless}, ${PLACE_KEYS.placeName}, ${PLACE_KEYS.placeId}, ${PLACE_KEYS.position})::text`,
      json: summaryJson(now),
    })
    .from(keychains)
    .leftJoin(custodian, eq(custodian.id, keychains.custodianId))
    .leftJoin(homeHook, eq(homeHook.id, keychains.homeHookId))
    .leftJoin(homePlace, eq(homePlace.id, homeHook.placeId))
}

type SummaryRow = Awaited<ReturnType<ReturnType<typeof selectSummaries>['execute']>>[number]

/** What a search (`q`) asks: its name condition (`nameSearch`) and the keychains its tag codes and holders find. */
type Search = { named: NameSearch; arms: SearchArms }

/** The name, or a tag's code, or the holder (an empty list of ids is `false`, which the planner drops). */
const searchWhere = ({ named, arms }: Search): SQL | undefined =>
  or(named.condition, inArray(keychains.id, arms.keychainIds), inArray(keychains.custodianId, arms.holderIds))

/**
 * One page of the organization's keychains in the query's order, read through the index of the same shape:
 * `limit + 1` rows from the cursor on. Exported for the plan test.
 */
export function keychainPageQuery(
  db: Db,
  organizationId: string,
  query: KeychainListQuery,
  limit: number,
  search?: Search,
  now: Date = new Date(),
  homes?: string[],
) {
  const order = orderOf(query)
  const onlyRareWords =
    search?.named.rareWords && search.arms.keychainIds.length + search.arms.holderIds.length === 0
  return selectSummaries(db, now)
    .where(
      and(
        onlyRareWords
          ? // Checked on the few rows the rare words find: a planner without statistics (PGlite never analyzes)
            // would otherwise intersect them with the organization's whole index range, which grows with it.
            sql`(${keychains.organizationId} = ${organizationId}) is true`
          : eq(keychains.organizationId, organizationId),
        query.status === 'deleted'
          ? isNotNull(keychains.deletedAt)
          : onlyRareWords
            ? // Likewise: the partial indexes of keychains not deleted would otherwise be read whole.
              sql`(${keychains.deletedAt} is null) is true`
            : isNull(keychains.deletedAt),
        query.status ? statusWhere(query.status, now) : undefined,
        query.cursor ? afterCursor(order, query.cursor) : undefined,
        search ? searchWhere(search) : undefined,
        query.custodianId ? eq(keychains.custodianId, query.custodianId) : undefined,
        homes
          ? inArray(
              keychains.homeHookId,
              db.select({ id: hooks.id }).from(hooks).where(inArray(hooks.placeId, homes)),
            )
          : undefined,
      ),
    )
    .orderBy(...orderBy(order))
    .limit(limit + 1)
}

/**
 * The two pages every list opens with (name order, no filter), a first one and the next ones, as named
 * statements: built once per database and page size, parsed and planned once per connection. The page size is
 * written in the statement, not bound: with `limit $n` PostgreSQL prices the generic plan for an unknown
 * limit, finds it dearer than the custom one and plans again on every call (pg_prepared_statements showed
 * 0 generic plans in 31 calls). At most PAGE_SIZE_MAX sizes, two statements each. Anything else goes through
 * `keychainPageQuery` (their plans depend on the values).
 */
function preparePages(db: Db, rows: number) {
  const organization = and(
    eq(keychains.organizationId, sql.placeholder('organizationId')),
    isNull(keychains.deletedAt),
  )
  // drizzle binds a number given to limit(); an SQL chunk is written as it is (an integer, never user text).
  const written = sql.raw(String(Math.trunc(rows))) as unknown as number
  const now = sql.placeholder('now')
  return {
    first: selectSummaries(db, now)
      .where(organization)
      .orderBy(...orderBy(ORDERS.name))
      .limit(written)
      .prepare(`keychain_page_natural_${rows}`),
    after: selectSummaries(db, now)
      .where(
        and(
          organization,
          sql`(${keychains.sortName}, ${keychains.id}) > (${sql.placeholder('afterName')}, ${sql.placeholder('afterId')}::uuid)`,
        ),
      )
      .orderBy(...orderBy(ORDERS.name))
      .limit(written)
      .prepare(`keychain_page_natural_after_${rows}`),
  }
}

const preparedPages = new WeakMap<Db, Map<number, ReturnType<typeof preparePages>>>()

function pagesOf(db: Db, rows: number) {
  let sizes = preparedPages.get(db)
  if (!sizes) {
    sizes = new Map()
    preparedPages.set(db, sizes)
  }
  let pages = sizes.get(rows)
  if (!pages) {
    pages = preparePages(db, rows)
    sizes.set(rows, pages)
  }
  return pages
}

async function pageRows(
  db: Db,
  organizationId: string,
  query: KeychainListQuery,
  limit: number,
  now: Date,
): Promise<{ rows: SummaryRow[]; tagMatch: string | null }> {
  // The place and every place under it (another organization's is a 404, as everywhere).
  const homes = query.placeId ? await placeSubtreeIds(db, organizationId, query.placeId) : undefined
  if (homes?.length === 0) throw notFound('No such place.')
  if (query.q) {
    const { tagMatch, ...arms } = await searchArms(db, organizationId, query.q)
    const named = await nameSearch(db, organizationId, query.q)
    const search = { named, arms }
    return { rows: await keychainPageQuery(db, organizationId, query, limit, search, now, homes), tagMatch }
  }
  if (homes || query.custodianId || query.status || (query.sort && query.sort !== 'name'))
    return {
      rows: await keychainPageQuery(db, organizationId, query, limit, undefined, now, homes),
      tagMatch: null,
    }
  const pages = pagesOf(db, limit + 1)
  const at = now.toISOString()
  if (!query.cursor) return { rows: await pages.first.execute({ organizationId, now: at }), tagMatch: null }
  const [afterName, afterId] = decodeNameCursor(query.cursor)
  return { rows: await pages.after.execute({ organizationId, now: at, afterName, afterId }), tagMatch: null }
}

function decodeNameCursor(cursor: string): [string, string] {
  const [letter, name, id] = decodeCursor(cursor, 3) as [string, string, string]
  if (letter !== ORDERS.name.letter || !isUuid(id)) throw malformedCursor()
  return [name, id]
}

function cursorKey(query: KeychainListQuery, row: SummaryRow): string[] {
  // A deleted keychain has its deletion instant, and every keychain its last change: neither is null here.
  if (query.status === 'deleted') return ['d', row.deletedAt as string, row.id]
  switch (query.sort) {
    case 'holder':
      return ['h', row.holderSort, row.sortName, row.id]
    case 'changed':
      return ['c', row.changedAt as string, row.id]
    case 'place': {
      const [homeless, placeName, placeId, position] = JSON.parse(row.placeKey) as [
        boolean,
        string,
        string,
        number,
      ]
      return ['p', String(homeless), placeName, placeId, String(position), row.sortName, row.id]
    }
    default:
      return ['n', row.sortName, row.id]
  }
}

/**
 * A page of keychain summaries as the JSON text of `KeychainPage`: the rows' JSON as the database wrote it,
 * joined (see `summaryJson`).
 */
export async function listKeychainsJson(
  db: Db,
  organizationId: string,
  query: KeychainListQuery,
  now: Date = new Date(),
): Promise<string> {
  const limit = pageLimit(query.limit)
  const { rows, tagMatch } = await pageRows(db, organizationId, query, limit, now)
  const page = rows.slice(0, limit)
  const last = page.at(-1)
  const nextCursor = rows.length > limit && last ? encodeCursor(cursorKey(query, last)) : null
  const data = page.map((row) => row.json).join(',')
  return `{"data":[${data}],"nextCursor":${JSON.stringify(nextCursor)},"tagMatch":${JSON.stringify(tagMatch)}}`
}
