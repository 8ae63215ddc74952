import { and, asc, eq, type SQL, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import { ErrorCode } from '../../../contract/errors.ts'
import type { KeychainSummary } from '../../../contract/keychains.ts'
import type { Db } from '../../db/client.ts'
import { keychains, keys, tags, users } from '../../db/schema.ts'
import { ApiError } from '../../http/errors.ts'
import { decodeCursor, likeContains, pageLimit, toPage } from '../../http/pagination.ts'
import { toPerson } from '../members/service.ts'

export type KeychainListQuery = { cursor?: string; limit?: number; q?: string; custodianId?: string }

const custodian = alias(users, 'custodian')
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

function afterCursor(cursor: string): SQL {
  const [name, id] = decodeCursor(cursor, 2) as [string, string]
  if (!UUID.test(id)) throw new ApiError(400, ErrorCode.validation, 'Malformed cursor.')
  return sql`(lower(${keychains.name}), ${keychains.id}) > (${name}, ${id}::uuid)`
}

/**
 * A keychain's key count and the codes of its tags, computed in its own row (a correlated subquery through
 * `keys_keychain_idx`, evaluated only for the rows of the page): the page is one statement.
 */
const keySummary = sql<{ count: number; codes: string[] }>`(
  select json_build_object('count', count(*), 'codes', coalesce(json_agg(${tags.code}) filter (where ${tags.code} is not null), '[]'::json))
  from ${keys} left join ${tags} on ${tags.id} = ${keys.tagId}
  where ${keys.keychainId} = ${keychains.id}
)`

/**
 * One page of the organization's keychains in (lower(name), id) order, read through the index of the same
 * shape: `limit + 1` rows from the cursor on, whatever the organization's size. Exported for the plan test.
 */
export function keychainPageQuery(db: Db, organizationId: string, query: KeychainListQuery, limit: number) {
  return (
    db
      // The sort key as the database computes it: JavaScript's toLowerCase() differs for some letters.
      .select({
        keychain: keychains,
        custodian,
        sortName: sql<string>`lower(${keychains.name})`,
        keySummary,
      })
      .from(keychains)
      .leftJoin(custodian, eq(custodian.id, keychains.custodianId))
      .where(
        and(
          eq(keychains.organizationId, organizationId),
          query.cursor ? afterCursor(query.cursor) : undefined,
          query.q ? sql`lower(${keychains.name}) like ${likeContains(query.q)}` : undefined,
          query.custodianId ? eq(keychains.custodianId, query.custodianId) : undefined,
        ),
      )
      .orderBy(asc(sql`lower(${keychains.name})`), asc(keychains.id))
      .limit(limit + 1)
  )
}

export async function listKeychains(
  db: Db,
  organizationId: string,
  query: KeychainListQuery,
): Promise<{ data: KeychainSummary[]; nextCursor: string | null }> {
  const limit = pageLimit(query.limit)
  const rows = await keychainPageQuery(db, organizationId, query, limit)
  return toPage(
    rows,
    limit,
    (row) => [row.sortName, row.keychain.id],
    (row) => ({
      id: row.keychain.id,
      name: row.keychain.name,
      custodian: row.custodian ? toPerson(row.custodian) : null,
      keyCount: row.keySummary.count,
      // Sorted here, as JavaScript compares (the database's collation may order codes otherwise).
      tagCodes: row.keySummary.codes.sort(),
      updatedAt: row.keychain.updatedAt.toISOString(),
    }),
  )
}
