import { and, asc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm'
import type { Key, Keychain } from '../../../contract/keychains.ts'
import type { Db } from '../../db/client.ts'
import {
  custodyLog,
  type KeychainRow,
  type KeyRow,
  keychains,
  keys,
  organizations,
  tags,
  type UserRow,
} from '../../db/schema.ts'
import { notFound } from '../../http/errors.ts'
import { toKey } from '../../shared/key-view.ts'
import { toPerson } from '../../shared/person.ts'
import { keychainStatus } from './list-filters.ts'
import { custodian } from './summary-json.ts'

type TransferState = {
  custodianId: string | null
  transferStatus: 'SCHEDULED' | 'TRANSFERRED' | null
  transferStartsAt: Date | null
  transferEndsAt: Date | null
}

/** The status and the transfer behind it, as the list shows them (`keychainStatus`). */
function statusOf(row: TransferState, now: Date): Pick<Keychain, 'status' | 'transfer'> {
  const status = keychainStatus(row, now)
  const transfer =
    status !== 'FREE' && status !== 'HELD' && row.transferStartsAt && row.transferEndsAt
      ? { startsAt: row.transferStartsAt.toISOString(), endsAt: row.transferEndsAt.toISOString() }
      : null
  return { status, transfer }
}

/**
 * The organization's keychains `where` says (deleted ones never: the mirror hears they are gone), in id order, each with its organization's name, custodian and
 * keys: two statements for any number of them (the keychains with their joins, then all their keys).
 */
export async function keychainDetails(
  db: Db,
  organizationId: string,
  where: SQL | undefined,
  limit?: number,
): Promise<Keychain[]> {
  const query = db
    .select({ keychain: keychains, organizationName: organizations.name, custodian, custodySeq })
    .from(keychains)
    .innerJoin(organizations, eq(organizations.id, keychains.organizationId))
    .leftJoin(custodian, eq(custodian.id, keychains.custodianId))
    .where(and(eq(keychains.organizationId, organizationId), isNull(keychains.deletedAt), where))
    .orderBy(asc(keychains.id))
  const rows = limit === undefined ? await query : await query.limit(limit)
  if (rows.length === 0) return []
  const keyRows = await db
    .select({ key: keys, tag: { id: tags.id, publicId: tags.publicId, code: tags.code, name: tags.name } })
    .from(keys)
    .leftJoin(tags, eq(tags.id, keys.tagId))
    .where(
      inArray(
        keys.keychainId,
        rows.map((row) => row.keychain.id),
      ),
    )
    .orderBy(asc(keys.seq))
  const keysOf = Map.groupBy(keyRows, (row) => row.key.keychainId)
  return rows.map((row) => toKeychainDetail(row, keysOf.get(row.keychain.id) ?? []))
}

/**
 * The number of its last custody change (0: none), through `custody_log_keychain_idx`: a phone offering the
 * keychain from its mirror names that change as its handover offer's `base`.
 */
const custodySeq = sql<string>`(
  select coalesce(max(${custodyLog.seq}), 0) from ${custodyLog} where ${custodyLog.keychainId} = ${keychains.id}
)`

type KeychainJoin = {
  keychain: KeychainRow
  organizationName: string
  custodian: UserRow | null
  custodySeq: string | number
}
type KeyJoin = { key: KeyRow; tag: { id: string; publicId: string; code: string; name: string } | null }

function toKeychainDetail(
  { keychain, organizationName, custodian, custodySeq }: KeychainJoin,
  keyRows: KeyJoin[],
): Keychain {
  return {
    id: keychain.id,
    organizationId: keychain.organizationId,
    organizationName,
    name: keychain.name,
    custodian: custodian ? toPerson(custodian) : null,
    keys: keyRows.map((row) => toKey(row.key, row.tag)),
    createdAt: keychain.createdAt.toISOString(),
    updatedAt: keychain.updatedAt.toISOString(),
    ...statusOf(keychain, new Date()),
    custodySeq: Number(custodySeq),
  }
}

/** One keychain of the organization; another organization's is a 404. */
export async function keychainDetail(db: Db, organizationId: string, id: string): Promise<Keychain> {
  const [keychain] = await keychainDetails(db, organizationId, eq(keychains.id, id))
  if (!keychain) throw notFound('No such keychain.')
  return keychain
}

/**
 * A keychain's keys in insertion order as the API's JSON, built by the database in the keychain's own row
 * (a correlated subquery through `keys_keychain_idx`): `GET /keychains/{id}` is then one statement.
 */
const keysAsJson = sql<Key[]>`(
  select coalesce(json_agg(json_build_object(
    'id', ${keys.id}, 'name', ${keys.name}, 'type', ${keys.type},
    'tag', case when ${keys.type} = 'TAG' and ${tags.id} is not null then json_build_object(
      'id', ${tags.id}, 'publicId', ${tags.publicId}, 'code', ${tags.code}, 'name', ${tags.name}) end
  ) order by ${keys.seq}), '[]'::json)
  from ${keys} left join ${tags} on ${tags.id} = ${keys.tagId}
  where ${keys.keychainId} = ${keychains.id}
)`

/**
 * `GET /keychains/{id}`, the most frequent read: the keychain with its organization's name, custodian and
 * keys in one statement, named and prepared (parsed and planned once per connection).
 */
function prepareKeychainById(db: Db) {
  return (
    db
      // The columns the answer shows, no more: every column costs its parsing on each of these reads.
      .select({
        keychain: {
          id: keychains.id,
          organizationId: keychains.organizationId,
          name: keychains.name,
          createdAt: keychains.createdAt,
          updatedAt: keychains.updatedAt,
          custodianId: keychains.custodianId,
          transferStatus: keychains.transferStatus,
          transferStartsAt: keychains.transferStartsAt,
          transferEndsAt: keychains.transferEndsAt,
        },
        organizationName: organizations.name,
        custodian: {
          id: custodian.id,
          email: custodian.email,
          firstName: custodian.firstName,
          lastName: custodian.lastName,
        },
        keys: keysAsJson,
        custodySeq,
      })
      .from(keychains)
      .innerJoin(organizations, eq(organizations.id, keychains.organizationId))
      .leftJoin(custodian, eq(custodian.id, keychains.custodianId))
      .where(
        and(
          eq(keychains.organizationId, sql.placeholder('organizationId')),
          eq(keychains.id, sql.placeholder('id')),
          isNull(keychains.deletedAt),
        ),
      )
      .prepare('keychain_by_id')
  )
}

const byIdStatements = new WeakMap<Db, ReturnType<typeof prepareKeychainById>>()

export async function keychainById(
  db: Db,
  organizationId: string,
  id: string,
  now: Date = new Date(),
): Promise<Keychain> {
  let statement = byIdStatements.get(db)
  if (!statement) {
    statement = prepareKeychainById(db)
    byIdStatements.set(db, statement)
  }
  const [row] = await statement.execute({ organizationId, id })
  if (!row) throw notFound('No such keychain.')
  const { keychain, organizationName, custodian: holder, custodySeq: seq } = row
  return {
    id: keychain.id,
    organizationId: keychain.organizationId,
    organizationName,
    name: keychain.name,
    custodian: holder ? toPerson(holder) : null,
    keys: row.keys,
    createdAt: keychain.createdAt.toISOString(),
    updatedAt: keychain.updatedAt.toISOString(),
    ...statusOf(keychain, now),
    custodySeq: Number(seq),
  }
}
