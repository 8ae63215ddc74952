import { and, asc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm'
import { ErrorCode } from '../../../contract/errors.ts'
import { BULK_KEYCHAINS_MAX, type BulkFilter, type BulkSelection } from '../../../contract/keychain-bulk.ts'
import type { Db } from '../../db/client.ts'
import { keychains } from '../../db/schema.ts'
import { ApiError, notFound } from '../../http/errors.ts'
import { likeContains } from '../../http/pagination.ts'

export type SelectedKeychain = { id: string; name: string; custodianId: string | null }

/** The keychain list's filter as a condition (the same as `GET /keychains`: part of the name, custodian). */
export function filterWhere(filter: BulkFilter): SQL | undefined {
  return and(
    filter.q ? sql`lower(${keychains.name}) like ${likeContains(filter.q)}` : undefined,
    filter.custodianId ? eq(keychains.custodianId, filter.custodianId) : undefined,
  )
}

function tooMany(): ApiError {
  return new ApiError(
    400,
    ErrorCode.bulkSelectionTooLarge,
    `More than ${BULK_KEYCHAINS_MAX} keychains match: narrow the search, or act on them in parts.`,
  )
}

/**
 * The selected keychains of the organization, locked `FOR UPDATE` in id order (every bulk action takes its
 * locks in the same order, and a single-keychain write locks one row: no deadlock). `ids` naming a keychain
 * that is not the organization's (another's, or gone) is a 404 and nothing changes; a filter matching more
 * than `BULK_KEYCHAINS_MAX` is a 400.
 */
export async function lockSelection(
  tx: Db,
  organizationId: string,
  selection: BulkSelection,
): Promise<SelectedKeychain[]> {
  const ids = selection.ids ? [...new Set(selection.ids)] : null
  const rows = await tx
    .select({ id: keychains.id, name: keychains.name, custodianId: keychains.custodianId })
    .from(keychains)
    .where(
      and(
        eq(keychains.organizationId, organizationId),
        // A deleted keychain is in no selection (`ids` naming one is the usual 404).
        isNull(keychains.deletedAt),
        ids ? inArray(keychains.id, ids) : filterWhere(selection.filter ?? {}),
      ),
    )
    .orderBy(asc(keychains.id))
    .limit(BULK_KEYCHAINS_MAX + 1)
    .for('update')
  if (ids && rows.length !== ids.length) throw notFound('No such keychain.')
  if (rows.length > BULK_KEYCHAINS_MAX) throw tooMany()
  return rows
}
