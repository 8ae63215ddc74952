import { and, eq, gt, isNotNull, isNull, lte, or, type SQL, type SQLWrapper, sql } from 'drizzle-orm'
import type { KeychainFilter, KeychainStatus } from '../../../contract/keychains.ts'
import { TAG_CODE_PATTERN } from '../../../contract/tags.ts'
import type { Db } from '../../db/client.ts'
import { keychains, keys, memberships, tags, users } from '../../db/schema.ts'
import { likeContains } from '../../http/pagination.ts'

type TransferColumns = {
  custodianId: string | null
  transferStatus: 'SCHEDULED' | 'TRANSFERRED' | null
  transferEndsAt: Date | null
}

/**
 * A keychain's status from its own columns and the clock: its transfer first (out, overdue once its end has
 * passed, scheduled until its end), then whether someone holds it. `keychainStatusSql` is the same rule in SQL
 * (for the list), `statusWhere` one status at a time (for its filters); a test holds the three together.
 */
export function keychainStatus(row: TransferColumns, now: Date): KeychainStatus {
  const ends = row.transferEndsAt?.getTime() ?? 0
  if (row.transferStatus === 'TRANSFERRED') return ends > now.getTime() ? 'OUT' : 'OVERDUE'
  if (row.transferStatus === 'SCHEDULED' && ends > now.getTime()) return 'SCHEDULED'
  return row.custodianId ? 'HELD' : 'FREE'
}

/** `keychainStatus` in SQL, for the list's rows written by the database. */
export function keychainStatusSql(now: Date | SQLWrapper): SQL<KeychainStatus> {
  return sql<KeychainStatus>`(case
    when ${statusWhere('out', now)} then 'OUT'
    when ${eq(keychains.transferStatus, 'TRANSFERRED')} then 'OVERDUE'
    when ${statusWhere('scheduled', now)} then 'SCHEDULED'
    when ${isNotNull(keychains.custodianId)} then 'HELD'
    else 'FREE' end)`
}

/** No transfer concerns it now (none, or a SCHEDULED one whose end has passed). */
const noTransfer = (now: Date | SQLWrapper) =>
  or(
    isNull(keychains.transferStatus),
    and(eq(keychains.transferStatus, 'SCHEDULED'), lte(keychains.transferEndsAt, now)),
  )

/** The condition of a status filter (`deleted` is the soft-deletion column, set by the caller). */
export function statusWhere(filter: KeychainFilter, now: Date | SQLWrapper): SQL | undefined {
  switch (filter) {
    case 'out':
      return and(eq(keychains.transferStatus, 'TRANSFERRED'), gt(keychains.transferEndsAt, now))
    case 'overdue':
      return and(eq(keychains.transferStatus, 'TRANSFERRED'), lte(keychains.transferEndsAt, now))
    case 'scheduled':
      return and(eq(keychains.transferStatus, 'SCHEDULED'), gt(keychains.transferEndsAt, now))
    case 'held':
      return and(isNotNull(keychains.custodianId), noTransfer(now))
    case 'free':
      return and(isNull(keychains.custodianId), noTransfer(now))
    case 'unheld':
      return isNull(keychains.custodianId)
    default:
      return undefined
  }
}

/**
 * A text that can be part of a tag code (`AAA-00000`): letters, then a hyphen and digits, with a digit or the
 * hyphen in it. Anything else (a space, letters after the hyphen) is no code: the tag index is not asked, as
 * its lists for the digits of a name ("Logement 00777") grow with the organization.
 */
const CODE_LIKE = /^(?=.*[\d-])[a-z]*-?\d*$/i

export const isCodeLike = (text: string): boolean => CODE_LIKE.test(text)

/** At most this many tags or holders widen a search (a search matching more is too broad to list by them). */
const SEARCH_ARM_LIMIT = 200

export type SearchArms = {
  /** Keychains with a tag whose code holds the text. */
  keychainIds: string[]
  /** Members whose name or e-mail holds the text. */
  holderIds: string[]
}

/**
 * What a search finds besides names, each through its own index: keychains by tag code (the code's trigram index,
 * only for a text that can be part of a code: `CODE_LIKE`), holders by name or e-mail among the organization's
 * members; and, for a whole tag code, the keychain that carries it (to open directly).
 */
export async function searchArms(
  db: Db,
  organizationId: string,
  q: string,
): Promise<SearchArms & { tagMatch: string | null }> {
  const pattern = likeContains(q)
  const code = q.trim().toUpperCase()
  const [tagRows, holderRows] = await Promise.all([
    isCodeLike(q.trim())
      ? db
          .select({ keychainId: keys.keychainId, code: tags.code })
          .from(tags)
          .innerJoin(keys, eq(keys.tagId, tags.id))
          .innerJoin(keychains, and(eq(keychains.id, keys.keychainId), isNull(keychains.deletedAt)))
          .where(
            and(
              eq(tags.organizationId, organizationId),
              TAG_CODE_PATTERN.test(code) ? eq(tags.code, code) : sql`lower(${tags.code}) like ${pattern}`,
            ),
          )
          .limit(SEARCH_ARM_LIMIT)
      : Promise.resolve([]),
    db
      .select({ id: users.id })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(
        and(
          eq(memberships.organizationId, organizationId),
          or(
            sql`lower(${users.firstName} || ' ' || ${users.lastName}) like ${pattern}`,
            sql`${users.email} like ${pattern}`,
          ),
        ),
      )
      .limit(SEARCH_ARM_LIMIT),
  ])
  return {
    keychainIds: [...new Set(tagRows.map((row) => row.keychainId))],
    holderIds: holderRows.map((row) => row.id),
    tagMatch: tagRows.find((row) => row.code === code)?.keychainId ?? null,
  }
}
