import { stringify } from 'csv-stringify/sync'
import { and, asc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm'
import type { KeychainExportQuery } from '../../../contract/keychain-bulk.ts'
import { HOME_SEPARATOR, KEYCHAIN_CSV_COLUMNS } from '../../../contract/keychain-import.ts'
import type { Db } from '../../db/client.ts'
import { hooks, keychains, keys, places, tags, users } from '../../db/schema.ts'
import { filterWhere } from '../keychain-bulk/selection.ts'

/** Keychains read per statement while exporting: memory stays flat whatever the organization's size. */
export const KEYCHAIN_EXPORT_BATCH = 1000

/** The next batch of the organization's keychains in (lower(name), id) order, after the last one sent. */
function keychainBatch(
  db: Db,
  organizationId: string,
  after: { name: string; id: string } | null,
  selection: SQL | undefined,
) {
  const where: Array<SQL | undefined> = [
    eq(keychains.organizationId, organizationId),
    isNull(keychains.deletedAt),
    selection,
    after ? sql`(lower(${keychains.name}), ${keychains.id}) > (${after.name}, ${after.id}::uuid)` : undefined,
  ]
  return db
    .select({
      id: keychains.id,
      name: keychains.name,
      sortName: sql<string>`lower(${keychains.name})`,
      custodianEmail: users.email,
      homePublicId: hooks.publicId,
      homeCode: hooks.code,
      homeBoard: places.name,
    })
    .from(keychains)
    .leftJoin(users, eq(users.id, keychains.custodianId))
    .leftJoin(hooks, eq(hooks.id, keychains.homeHookId))
    .leftJoin(places, eq(places.id, hooks.placeId))
    .where(and(...where))
    .orderBy(asc(sql`lower(${keychains.name})`), asc(keychains.id))
    .limit(KEYCHAIN_EXPORT_BATCH)
}

/** Board and cabinet names (lower case) the organization has more than one of: a home there is named by id. */
async function sharedBoardNames(db: Db, organizationId: string): Promise<Set<string>> {
  const rows = await db
    .select({ name: sql<string>`lower(${places.name})` })
    .from(places)
    .where(and(eq(places.organizationId, organizationId), inArray(places.kind, ['BOARD', 'CABINET'])))
    .groupBy(sql`lower(${places.name})`)
    .having(sql`count(*) > 1`)
  return new Set(rows.map((row) => row.name))
}

/** A home as the import reads it: `Board / A-12`, or the hook's public id when the board's name is shared. */
function homeCell(
  home: { homePublicId: string | null; homeCode: string | null; homeBoard: string | null },
  shared: Set<string>,
): string {
  const { homePublicId, homeCode, homeBoard } = home
  if (homePublicId === null || homeCode === null || homeBoard === null) return ''
  return shared.has(homeBoard.toLowerCase()) ? homePublicId : `${homeBoard}${HOME_SEPARATOR}${homeCode}`
}

function keysOf(db: Db, keychainIds: string[]) {
  return db
    .select({ keychainId: keys.keychainId, name: keys.name, type: keys.type, tagCode: tags.code })
    .from(keys)
    .leftJoin(tags, eq(tags.id, keys.tagId))
    .where(inArray(keys.keychainId, keychainIds))
    .orderBy(asc(keys.seq))
}

/**
 * `GET /keychain-export`: every keychain of the organization (or those selected: `ids`, or the list's `q` and
 * `custodianId`) with its keys, in the import's format (one row
 * per key in the order they were added, one row with empty key columns for a keychain without keys), with a
 * byte order mark and CRLF so that Excel reads accents right; streamed batch by batch, the next read when the
 * client has taken the last (back-pressure). A cell a spreadsheet would run as a formula (`=`, `+`, `-`, `@`…)
 * is written after a `'` (csv-stringify's `escape_formulas`), which the import takes off again (`unescapeFormula`):
 * a name typed by one person cannot run in another's spreadsheet, and the file still round-trips.
 */
export function keychainCsv(
  db: Db,
  organizationId: string,
  query: KeychainExportQuery = {},
): ReadableStream<Uint8Array> {
  // A selection of the keychain list: the rows ticked (`ids`), or all matching its filter.
  const selection = query.ids ? inArray(keychains.id, query.ids) : filterWhere(query)
  const encoder = new TextEncoder()
  let after: { name: string; id: string } | null = null
  let first = true
  let shared: Set<string> | undefined
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      shared ??= await sharedBoardNames(db, organizationId)
      const sharedNames = shared
      const batch = await keychainBatch(db, organizationId, after, selection)
      const keysByKeychain = new Map<string, Array<Awaited<ReturnType<typeof keysOf>>[number]>>()
      if (batch.length > 0) {
        for (const key of await keysOf(
          db,
          batch.map((keychain) => keychain.id),
        )) {
          keysByKeychain.set(key.keychainId, [...(keysByKeychain.get(key.keychainId) ?? []), key])
        }
      }
      const records = batch.flatMap((keychain) => {
        const own = keysByKeychain.get(keychain.id) ?? []
        const email = keychain.custodianEmail ?? ''
        const home = homeCell(keychain, sharedNames)
        if (own.length === 0) return [[keychain.name, email, '', '', '', home]]
        return own.map((key) => [keychain.name, email, key.name, key.type, key.tagCode ?? '', home])
      })
      const text = stringify(records, {
        header: first,
        columns: [...KEYCHAIN_CSV_COLUMNS],
        record_delimiter: 'windows',
        escape_formulas: true,
      })
      if (records.length > 0 || first) controller.enqueue(encoder.encode(`${first ? '\uFEFF' : ''}${text}`))
      first = false
      if (batch.length < KEYCHAIN_EXPORT_BATCH) {
        controller.close()
        return
      }
      const last = batch.at(-1)!
      after = { name: last.sortName, id: last.id }
    },
  })
}
