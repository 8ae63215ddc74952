import { and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { Key, Keychain } from '../../../contract/keychains.ts'
import type { Db } from '../../db/client.ts'
import {
  type KeychainRow,
  type KeyRow,
  keychains,
  keys,
  organizations,
  tags,
  type UserRow,
  users,
} from '../../db/schema.ts'
import { notFound } from '../../http/errors.ts'
import { toPerson } from '../members/service.ts'

const custodian = alias(users, 'custodian')

export function toKey(
  row: KeyRow,
  tag: { id: string; publicId: string; code: string; name: string } | null,
): Key {
  return { id: row.id, name: row.name, type: row.type, tag: row.type === 'TAG' ? tag : null }
}

/**
 * The organization's keychains `where` says, in id order, each with its organization's name, custodian and
 * keys: two statements for any number of them (the keychains with their joins, then all their keys).
 */
export async function keychainDetails(
  db: Db,
  organizationId: string,
  where: SQL | undefined,
  limit?: number,
): Promise<Keychain[]> {
  const query = db
    .select({ keychain: keychains, organizationName: organizations.name, custodian })
    .from(keychains)
    .innerJoin(organizations, eq(organizations.id, keychains.organizationId))
    .leftJoin(custodian, eq(custodian.id, keychains.custodianId))
    .where(and(eq(keychains.organizationId, organizationId), where))
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

type KeychainJoin = { keychain: KeychainRow; organizationName: string; custodian: UserRow | null }
type KeyJoin = { key: KeyRow; tag: { id: string; publicId: string; code: string; name: string } | null }

function toKeychainDetail(
  { keychain, organizationName, custodian }: KeychainJoin,
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
  }
}

/** One keychain of the organization; another organization's is a 404. */
export async function keychainDetail(db: Db, organizationId: string, id: string): Promise<Keychain> {
  const [keychain] = await keychainDetails(db, organizationId, eq(keychains.id, id))
  if (!keychain) throw notFound('No such keychain.')
  return keychain
}

/**
 * `GET /keychains/{id}`, the most frequent read: the same two statements as `keychainDetail`, named and
 * prepared (parsed and planned once per connection).
 */
function prepareKeychainById(db: Db) {
  return {
    keychain: db
      .select({ keychain: keychains, organizationName: organizations.name, custodian })
      .from(keychains)
      .innerJoin(organizations, eq(organizations.id, keychains.organizationId))
      .leftJoin(custodian, eq(custodian.id, keychains.custodianId))
      .where(
        and(
          eq(keychains.organizationId, sql.placeholder('organizationId')),
          eq(keychains.id, sql.placeholder('id')),
        ),
      )
      .prepare('keychain_by_id'),
    keys: db
      .select({ key: keys, tag: { id: tags.id, publicId: tags.publicId, code: tags.code, name: tags.name } })
      .from(keys)
      .leftJoin(tags, eq(tags.id, keys.tagId))
      .where(eq(keys.keychainId, sql.placeholder('keychainId')))
      .orderBy(asc(keys.seq))
      .prepare('keys_of_keychain'),
  }
}

const byIdStatements = new WeakMap<Db, ReturnType<typeof prepareKeychainById>>()

export async function keychainById(db: Db, organizationId: string, id: string): Promise<Keychain> {
  let statements = byIdStatements.get(db)
  if (!statements) {
    statements = prepareKeychainById(db)
    byIdStatements.set(db, statements)
  }
  const [row] = await statements.keychain.execute({ organizationId, id })
  if (!row) throw notFound('No such keychain.')
  const keyRows = await statements.keys.execute({ keychainId: row.keychain.id })
  return toKeychainDetail(row, keyRows)
}
