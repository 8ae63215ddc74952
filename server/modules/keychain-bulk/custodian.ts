import { and, eq, inArray, sql } from 'drizzle-orm'
import { ErrorCode } from '../../../contract/errors.ts'
import type { BulkFilter, BulkResult } from '../../../contract/keychain-bulk.ts'
import type { Db } from '../../db/client.ts'
import { custodyLog, keychains, transfers } from '../../db/schema.ts'
import { ApiError } from '../../http/errors.ts'
import { OFF_THE_HOOK } from '../../shared/places.ts'
import { isCustodianCandidate } from '../members/service.ts'
import { lockSelection } from './selection.ts'

/**
 * `POST /keychain-bulk/custodian-changes`, inside the caller's transaction: the selected keychains (locked in
 * id order) go to `custodianId`, each with one custody entry (the same reason) and one `keychain.updated`
 * event with the same payload as a single change, in three statements whatever their number. Keychains that
 * already have that custodian are left as they are (no entry, as a single change). All or nothing: one
 * keychain out on a transfer refuses the whole change (409).
 */
export async function changeCustodians(
  tx: Db,
  input: {
    organizationId: string
    actorId: string
    selection: { ids?: string[] | undefined; filter?: BulkFilter | undefined }
    custodianId: string | null
    reason: string
    now: Date
  },
): Promise<BulkResult> {
  const { organizationId, custodianId, now } = input
  if (custodianId && !(await isCustodianCandidate(tx, organizationId, custodianId))) {
    const message = 'The custodian must be a member of the organization.'
    throw new ApiError(400, ErrorCode.validation, message, { issues: [{ path: 'custodianId', message }] })
  }
  const selected = await lockSelection(tx, organizationId, input.selection)
  const changing = selected.filter((keychain) => keychain.custodianId !== custodianId)
  if (changing.length === 0) return { count: 0, unchanged: selected.length }
  const ids = changing.map((keychain) => keychain.id)
  const out = await tx
    .select({ id: transfers.keychainId })
    .from(transfers)
    .where(and(inArray(transfers.keychainId, ids), eq(transfers.status, 'TRANSFERRED')))
  if (out.length > 0) {
    const names = changing.filter((keychain) => out.some((row) => row.id === keychain.id))
    throw new ApiError(
      409,
      ErrorCode.conflict,
      `${names.length} of these keychains are out on a transfer (${names
        .slice(0, 3)
        .map((keychain) => keychain.name)
        .join(
          ', ',
        )}${names.length > 3 ? '…' : ''}): their custodian changes when they are returned. Nothing was changed.`,
    )
  }
  await tx
    .update(keychains)
    // Taken by someone: off their hooks.
    .set({ custodianId, updatedAt: now, ...(custodianId ? OFF_THE_HOOK : {}) })
    .where(inArray(keychains.id, ids))
  await tx.insert(custodyLog).values(
    changing.map((keychain) => ({
      keychainId: keychain.id,
      byUserId: input.actorId,
      fromUserId: keychain.custodianId,
      toUserId: custodianId,
      reason: input.reason,
      at: now,
    })),
  )
  const rows = changing.map((keychain) => ({ id: keychain.id, from_id: keychain.custodianId }))
  // One event per keychain, as a single change writes (the activity log and the field mirror read them).
  await tx.execute(sql`select append_organization_event(
      ${organizationId}::uuid, 'keychain.updated', ${input.actorId}::uuid, null::timestamptz,
      ${now.toISOString()}::timestamptz, false, array[k.id], '{}'::uuid[], '{}'::uuid[],
      jsonb_build_object('custodian', jsonb_build_object('from', k.from_id, 'to', ${custodianId}::uuid),
        'reason', ${input.reason}::text))
    from (select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(id uuid, from_id uuid)
      order by id) as k`)
  return { count: changing.length, unchanged: selected.length - changing.length }
}
