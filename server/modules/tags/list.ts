import { and, asc, eq, gt, isNotNull, isNull, or, type SQL, sql } from 'drizzle-orm'
import { TAG_CODE_PATTERN, type Tag, type TagUse } from '../../../contract/tags.ts'
import type { Db } from '../../db/client.ts'
import { keychains, keys, type TagRow, tags } from '../../db/schema.ts'
import type { AppDeps } from '../../deps.ts'
import { decodeCursor, likeContains, pageLimit, toPage } from '../../http/pagination.ts'
import { type TagKeyLink, toTag } from '../../shared/tag-view.ts'

type Deps = Pick<AppDeps, 'database' | 'config'>

const linkColumns = {
  tag: tags,
  keyId: keys.id,
  keyName: keys.name,
  keychainId: keychains.id,
  keychainName: keychains.name,
}

type LinkedRow = {
  tag: TagRow
  keyId: string | null
  keyName: string | null
  keychainId: string | null
  keychainName: string | null
}

export function keyLinkOf(row: LinkedRow): TagKeyLink {
  return row.keyId && row.keyName !== null && row.keychainId && row.keychainName !== null
    ? { id: row.keyId, name: row.keyName, keychainId: row.keychainId, keychainName: row.keychainName }
    : null
}

/** Tags with the key (and keychain) each one is on, if any. */
export async function selectLinkedTags(db: Db, where: SQL | undefined, limit?: number): Promise<LinkedRow[]> {
  const query = db
    .select(linkColumns)
    .from(tags)
    .leftJoin(keys, eq(keys.tagId, tags.id))
    .leftJoin(keychains, eq(keychains.id, keys.keychainId))
    .where(where)
    .orderBy(asc(tags.code))
  return limit === undefined ? query : query.limit(limit)
}

/**
 * A page of the organization's tags in code order; `unused=true` or `use=free` keeps tags not on a key yet,
 * `use=used` those on a key.
 */
export async function listTags(
  deps: Deps,
  organizationId: string,
  query: { cursor?: string; limit?: number; unused?: 'true' | 'false'; use?: TagUse; q?: string },
): Promise<{ data: Tag[]; nextCursor: string | null }> {
  const limit = pageLimit(query.limit)
  const after = query.cursor ? decodeCursor(query.cursor, 1)[0] : undefined
  // A whole code (`AGC-00042`) finds that tag through the unique index; anything else searches codes and names
  // for the text (trigram indexes). Left to the planner, a rare whole code walked the code order instead.
  const code = query.q?.trim().toUpperCase()
  const exact = code !== undefined && TAG_CODE_PATTERN.test(code) ? code : undefined
  const pattern = query.q && !exact ? likeContains(query.q) : undefined
  const rows = await selectLinkedTags(
    deps.database.db,
    and(
      eq(tags.organizationId, organizationId),
      after !== undefined ? gt(tags.code, after) : undefined,
      query.unused === 'true' || query.use === 'free' ? isNull(keys.id) : undefined,
      query.use === 'used' ? isNotNull(keys.id) : undefined,
      exact ? eq(tags.code, exact) : undefined,
      pattern
        ? or(sql`lower(${tags.code}) like ${pattern}`, sql`lower(${tags.name}) like ${pattern}`)
        : undefined,
    ),
    limit + 1,
  )
  return toPage(
    rows,
    limit,
    (row) => [row.tag.code],
    (row) => toTag(row.tag, keyLinkOf(row), deps.config.publicUrl),
  )
}
