import { and, eq, sql } from 'drizzle-orm'
import { permissionsFor, type Role } from '../../../contract/permissions.ts'
import { concerningTransfer } from '../../../contract/transfer-state.ts'
import type { Transfer } from '../../../contract/transfers.ts'
import type { Db } from '../../db/client.ts'
import { oncePerDatabase } from '../../db/prepared.ts'
import { transfers } from '../../db/schema.ts'
import { openWhere } from '../../shared/transfer-conditions.ts'
import { recipientIsMember, selectTransfers, toTransfer } from '../../shared/transfer-view.ts'

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

/** The open transfers of a keychain, all of them or those addressed to the caller (a member): built once. */
const transferStatements = oncePerDatabase((db) => {
  const keychain = eq(transfers.keychainId, sql.placeholder('keychainId'))
  const open = openWhere(sql.placeholder('now'))
  return {
    all: selectTransfers(db).where(and(keychain, open)).prepare('scan_transfers_all'),
    own: selectTransfers(db)
      .where(and(keychain, open, eq(transfers.recipientId, sql.placeholder('userId')), recipientIsMember))
      .prepare('scan_transfers_own'),
  }
})

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
  const statements = transferStatements(db)
  const rows = await (seesAll ? statements.all : statements.own).execute({
    keychainId: input.keychainId,
    now: now.toISOString(),
    userId,
  })
  const chosen = concerningTransfer(rows, (row) => row.transfer, userId, now)
  // The caller's role there is known: the view does not read it again.
  const roles = new Map(input.role ? [[input.organizationId, input.role]] : [])
  return chosen ? toTransfer(db, chosen, userId, now, input.publicUrl, roles) : null
}
