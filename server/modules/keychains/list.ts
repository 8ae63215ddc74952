import { and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm'
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
 * One page of the organization's keychains in (lower(name), id) order, read through the index of the same
 * shape: `limit + 1` rows from the cursor on, whatever the organization's size. Exported for the plan test.
 */
export function keychainPageQuery(db: Db, organizationId: string, query: KeychainListQuery, limit: number) {
  return (
    db
      // The sort key as the database computes it: JavaScript's toLowerCase() differs for some letters.
      .select({ keychain: keychains, custodian, sortName: sql<string>`lower(${keychains.name})` })
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
  const ids = rows.slice(0, limit).map((row) => row.keychain.id)
  const keyRows =
    ids.length === 0
      ? []
      : await db
          .select({ keychainId: keys.keychainId, code: tags.code })
          .from(keys)
          .leftJoin(tags, eq(tags.id, keys.tagId))
          .where(inArray(keys.keychainId, ids))
  const counts = new Map<string, { keyCount: number; tagCodes: string[] }>()
  for (const row of keyRows) {
    const entry = counts.get(row.keychainId) ?? { keyCount: 0, tagCodes: [] }
    entry.keyCount += 1
    if (row.code) entry.tagCodes.push(row.code)
    counts.set(row.keychainId, entry)
  }
  return toPage(
    rows,
    limit,
    (row) => [row.sortName, row.keychain.id],
    (row) => ({
      id: row.keychain.id,
      name: row.keychain.name,
      custodian: row.custodian ? toPerson(row.custodian) : null,
      keyCount: counts.get(row.keychain.id)?.keyCount ?? 0,
      tagCodes: (counts.get(row.keychain.id)?.tagCodes ?? []).sort(),
      updatedAt: row.keychain.updatedAt.toISOString(),
    }),
  )
}
