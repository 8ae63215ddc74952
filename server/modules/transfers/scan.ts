import { and, eq, sql } from 'drizzle-orm'
import { permissionsFor, type Role } from '../../../contract/permissions.ts'
import { concerningTransfer } from '../../../contract/transfer-state.ts'
import type { Transfer } from '../../../contract/transfers.ts'
import type { Db } from '../../db/client.ts'
import { transfers } from '../../db/schema.ts'
import { openWhere } from './conditions.ts'
import { recipientIsMember, selectTransfers, toTransfer } from './view.ts'

/** Whether the role sees every transfer of its organization (a CONTACT sees only those addressed to them). */
export const seesAllTransfers = (role: Role | null) =>
  role !== null && role !== 'CONTACT' && permissionsFor(role).includes('read__transfer')

/** An open transfer of the keychain is addressed to the user, a member (not DISABLED) of its organization. */
export async function hasOpenTransferTo(db: Db, keychainId: string, userId: string, now: Date) {
  const [row] = await db
    .select({ id: transfers.id })
    .from(transfers)
    .where(
      and(
        eq(transfers.keychainId, keychainId),
        eq(transfers.recipientId, userId),
        openWhere(now),
        sql`exists (select 1 from memberships m where m.user_id = ${transfers.recipientId} and m.organization_id = ${transfers.organizationId} and m.status <> 'DISABLED')`,
      ),
    )
    .limit(1)
  return row !== undefined
}

/** The keychain's transfer that concerns the caller at a scan (`concerningTransfer`), among the open ones they see. */
export async function scanTransfer(
  db: Db,
  input: {
    /** The keychain's organization, where the caller has `role`. */
    organizationId: string
    keychainId: string
    userId: string
    role: Role | null
    now: Date
    publicUrl: string
  },
): Promise<Transfer | null> {
  const { userId, now } = input
  const seesAll = seesAllTransfers(input.role)
  const rows = await selectTransfers(db)
    .where(
      and(
        eq(transfers.keychainId, input.keychainId),
        openWhere(now),
        seesAll ? undefined : and(eq(transfers.recipientId, userId), recipientIsMember),
      ),
    )
    // Named (one text per shape): parsed and planned once per connection, also inside the scan's transaction.
    .prepare(seesAll ? 'scan_transfers_all' : 'scan_transfers_own')
    .execute()
  const chosen = concerningTransfer(rows, (row) => row.transfer, userId, now)
  // The caller's role there is known: the view does not read it again.
  const roles = new Map(input.role ? [[input.organizationId, input.role]] : [])
  return chosen ? toTransfer(db, chosen, userId, now, input.publicUrl, roles) : null
}
