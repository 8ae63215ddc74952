import { sql } from 'drizzle-orm'
import { ErrorCode } from '../../../contract/errors.ts'
import type { BulkFilter, BulkResult } from '../../../contract/keychain-bulk.ts'
import type { Db } from '../../db/client.ts'
import { ApiError } from '../../http/errors.ts'
import { keychainsDeletionGuards } from '../keychains/deletion-guards.ts'
import { softDeleteKeychainsIn } from '../keychains/soft-delete.ts'
import { lockSelection } from './selection.ts'

/**
 * `POST /keychain-bulk/deletions`, inside the caller's transaction: the selected keychains (locked in id order)
 * are soft-deleted (their tags become free, kept for a restore), each with one `keychain.deleted` event as a single
 * deletion writes. All or nothing: a deletion guard refusing one keychain refuses them all (409).
 */
export async function deleteKeychains(
  tx: Db,
  input: {
    organizationId: string
    actorId: string
    selection: { ids?: string[] | undefined; filter?: BulkFilter | undefined }
    now: Date
  },
): Promise<BulkResult> {
  const selected = await lockSelection(tx, input.organizationId, input.selection)
  if (selected.length === 0) return { count: 0, unchanged: 0 }
  const ids = selected.map((keychain) => keychain.id)
  for (const guard of keychainsDeletionGuards) {
    const refused = await guard(tx, ids, input.now)
    if (refused.length > 0) {
      const names = selected
        .filter((keychain) => refused.includes(keychain.id))
        .map((keychain) => keychain.name)
      throw new ApiError(
        409,
        ErrorCode.conflict,
        `${names.length} of these keychains have an active transfer (${names.slice(0, 3).join(', ')}${
          names.length > 3 ? '…' : ''
        }): cancel it, or wait for them to come back. Nothing was deleted.`,
      )
    }
  }
  // Soft, as a single deletion: each can be restored with its keys and tags (`POST /keychains/{id}/restore`).
  const freed = await softDeleteKeychainsIn(tx, {
    organizationId: input.organizationId,
    ids,
    actorId: input.actorId,
    now: input.now,
  })
  const rows = selected.map((keychain) => ({
    id: keychain.id,
    name: keychain.name,
    tag_ids: `{${(freed.get(keychain.id) ?? []).join(',')}}`,
  }))
  // One event per keychain, as a single deletion writes (the mirror hears of the freed tags too).
  await tx.execute(sql`select append_organization_event(
      ${input.organizationId}::uuid, 'keychain.deleted', ${input.actorId}::uuid, null::timestamptz,
      ${input.now.toISOString()}::timestamptz, false, array[k.id], k.tag_ids::uuid[], '{}'::uuid[],
      jsonb_build_object('name', k.name))
    from (select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(id uuid, tag_ids text, name text)
      order by id) as k`)
  return { count: selected.length, unchanged: 0 }
}
