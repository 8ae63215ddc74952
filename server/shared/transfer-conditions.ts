import { and, eq, gt, lte, not, or, type Placeholder, type SQL } from 'drizzle-orm'
import { RETURN_GRACE_MS, type TransferStatus } from '../../contract/transfers.ts'
import type { Db } from '../db/client.ts'
import { transfers } from '../db/schema.ts'

/*
 * The computed status and `expired` flag as SQL, the same rules as `status.ts` (the tests compare both):
 * RETURNING is stored TRANSFERRED with ends_at <= now; expired is SCHEDULED with ends_at <= now, or
 * TRANSFERRED with ends_at + grace <= now.
 */

export function statusWhere(status: TransferStatus, now: Date): SQL {
  switch (status) {
    case 'TRANSFERRED':
      return and(eq(transfers.status, 'TRANSFERRED'), gt(transfers.endsAt, now))!
    case 'RETURNING':
      return and(eq(transfers.status, 'TRANSFERRED'), lte(transfers.endsAt, now))!
    default:
      return eq(transfers.status, status)
  }
}

export function expiredWhere(expired: boolean, now: Date): SQL {
  const condition = or(
    and(eq(transfers.status, 'SCHEDULED'), lte(transfers.endsAt, now)),
    and(
      eq(transfers.status, 'TRANSFERRED'),
      lte(transfers.endsAt, new Date(now.getTime() - RETURN_GRACE_MS)),
    ),
  )!
  return expired ? condition : not(condition)
}

/**
 * Open (still concerns its keychain and recipient): SCHEDULED not expired, TRANSFERRED or RETURNING. `now` may be
 * a placeholder of a statement built once (its value an ISO string: a placeholder's value is sent as it is).
 */
export function openWhere(now: Date | Placeholder): SQL {
  return or(
    and(eq(transfers.status, 'SCHEDULED'), gt(transfers.endsAt, now)),
    eq(transfers.status, 'TRANSFERRED'),
  )!
}

/** A SCHEDULED not expired, TRANSFERRED or RETURNING transfer of the keychain (blocks its deletion). */
export async function hasOpenTransfer(db: Db, keychainId: string, now: Date): Promise<boolean> {
  const [row] = await db
    .select({ id: transfers.id })
    .from(transfers)
    .where(and(eq(transfers.keychainId, keychainId), openWhere(now)))
    .limit(1)
  return row !== undefined
}

/** A transfer of the keychain is out (TRANSFERRED or RETURNING): its return gives custody back. */
export async function hasTransferOut(db: Db, keychainId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: transfers.id })
    .from(transfers)
    .where(and(eq(transfers.keychainId, keychainId), eq(transfers.status, 'TRANSFERRED')))
    .limit(1)
  return row !== undefined
}
