import { and, asc, eq, type SQL, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import { ErrorCode } from '../../../contract/errors.ts'
import type { KeychainSummary } from '../../../contract/keychains.ts'
import type { Db } from '../../db/client.ts'
import { keychains, users } from '../../db/schema.ts'
import { ApiError } from '../../http/errors.ts'
import { decodeCursor, likeContains, pageLimit, toPage } from '../../http/pagination.ts'
import { toPerson } from '../members/service.ts'
import { type NameSearch, nameSearch } from './name-search.ts'

export type KeychainListQuery = { cursor?: string; limit?: number; q?: string; custodianId?: string }

const custodian = alias(users, 'custodian')
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** The (lower(name), id) a page goes on after. */
function cursorOf(cursor: string): [string, string] {
  const [name, id] = decodeCursor(cursor, 2) as [string, string]
  if (!UUID.test(id)) throw new ApiError(400, ErrorCode.validation, 'Malformed cursor.')
  return [name, id]
}

function afterCursor(cursor: string): SQL {
  const [name, id] = cursorOf(cursor)
  return sql`(lower(${keychains.name}), ${keychains.id}) > (${name}, ${id}::uuid)`
}

/** What a summary shows, and nothing more (fewer columns to send, decode and map per row). */
function selectSummaries(db: Db) {
  return (
    db
      // The sort key as the database computes it: JavaScript's toLowerCase() differs for some letters.
      .select({
        // The key count and tag codes are the keychain's own columns, kept in step with its keys by the
        // database (migration 0014): the page is a plain index scan, no per-row subquery.
        keychain: {
          id: keychains.id,
          name: keychains.name,
          updatedAt: keychains.updatedAt,
          keyCount: keychains.keyCount,
          tagCodes: keychains.tagCodes,
        },
        custodian: {
          id: custodian.id,
          email: custodian.email,
          firstName: custodian.firstName,
          lastName: custodian.lastName,
        },
        sortName: sql<string>`lower(${keychains.name})`,
      })
      .from(keychains)
      .leftJoin(custodian, eq(custodian.id, keychains.custodianId))
  )
}

const byName = [asc(sql`lower(${keychains.name})`), asc(keychains.id)]

/**
 * One page of the organization's keychains in (lower(name), id) order, read through the index of the same
 * shape: `limit + 1` rows from the cursor on, whatever the organization's size. Exported for the plan test.
 */
export function keychainPageQuery(
  db: Db,
  organizationId: string,
  query: KeychainListQuery,
  limit: number,
  /** The search's condition (`nameSearch`); without it, `q` is looked up whole. */
  named?: NameSearch,
) {
  return selectSummaries(db)
    .where(
      and(
        named?.rareWords
          ? // Checked on the few rows the rare words find: a planner without statistics (PGlite never analyzes)
            // would otherwise intersect them with the organization's whole index range, which grows with it.
            sql`(${keychains.organizationId} = ${organizationId}) is true`
          : eq(keychains.organizationId, organizationId),
        query.cursor ? afterCursor(query.cursor) : undefined,
        query.q
          ? (named?.condition ?? sql`lower(${keychains.name}) like ${likeContains(query.q)}`)
          : undefined,
        query.custodianId ? eq(keychains.custodianId, query.custodianId) : undefined,
      ),
    )
    .orderBy(...byName)
    .limit(limit + 1)
}

/**
 * The two pages every list opens with, a first one and the next ones, as named statements: built once per
 * database, parsed and planned once per connection. A search or a custodian filter goes through
 * `keychainPageQuery` (their plans depend on the values).
 */
function preparePages(db: Db) {
  const organization = eq(keychains.organizationId, sql.placeholder('organizationId'))
  const rows = sql.placeholder('rows')
  return {
    first: selectSummaries(db)
      .where(organization)
      .orderBy(...byName)
      .limit(rows)
      .prepare('keychain_page'),
    after: selectSummaries(db)
      .where(
        and(
          organization,
          sql`(lower(${keychains.name}), ${keychains.id}) > (${sql.placeholder('afterName')}, ${sql.placeholder('afterId')}::uuid)`,
        ),
      )
      .orderBy(...byName)
      .limit(rows)
      .prepare('keychain_page_after'),
  }
}

const preparedPages = new WeakMap<Db, ReturnType<typeof preparePages>>()

async function pageRows(db: Db, organizationId: string, query: KeychainListQuery, limit: number) {
  if (query.q || query.custodianId) {
    const named = query.q ? await nameSearch(db, organizationId, query.q) : undefined
    return keychainPageQuery(db, organizationId, query, limit, named)
  }
  let pages = preparedPages.get(db)
  if (!pages) {
    pages = preparePages(db)
    preparedPages.set(db, pages)
  }
  if (!query.cursor) return pages.first.execute({ organizationId, rows: limit + 1 })
  const [afterName, afterId] = cursorOf(query.cursor)
  return pages.after.execute({ organizationId, rows: limit + 1, afterName, afterId })
}

export async function listKeychains(
  db: Db,
  organizationId: string,
  query: KeychainListQuery,
): Promise<{ data: KeychainSummary[]; nextCursor: string | null }> {
  const limit = pageLimit(query.limit)
  const rows = await pageRows(db, organizationId, query, limit)
  return toPage(
    rows,
    limit,
    (row) => [row.sortName, row.keychain.id],
    (row) => ({
      id: row.keychain.id,
      name: row.keychain.name,
      custodian: row.custodian ? toPerson(row.custodian) : null,
      keyCount: row.keychain.keyCount,
      // Sorted here, as JavaScript compares (the database's collation may order codes otherwise).
      tagCodes: row.keychain.tagCodes.sort(),
      updatedAt: row.keychain.updatedAt.toISOString(),
    }),
  )
}
