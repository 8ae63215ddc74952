import { and, inArray } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { transfers } from '../../db/schema.ts'
import { hasOpenTransfer, openWhere } from '../../shared/transfer-conditions.ts'

/**
 * Reasons a keychain cannot be deleted right now, checked inside the deleting transaction (the keychain row
 * locked); a guard answers a message for the 409, or null to let the deletion through.
 */
export type KeychainDeletionGuard = (db: Db, keychainId: string, now: Date) => Promise<string | null>

/** An open transfer (SCHEDULED not expired, TRANSFERRED, RETURNING) still concerns the keychain. */
const refuseWhileTransferActive: KeychainDeletionGuard = async (db, keychainId, now) =>
  (await hasOpenTransfer(db, keychainId, now))
    ? 'This keychain has an active transfer: cancel it, or wait for the keychain to come back, before deleting it.'
    : null

export const keychainDeletionGuards: KeychainDeletionGuard[] = [refuseWhileTransferActive]

/**
 * The guards above over many keychains at once (a bulk deletion), one statement each: the ids each refuses.
 * Keep the two lists in step.
 */
export type KeychainsDeletionGuard = (db: Db, keychainIds: string[], now: Date) => Promise<string[]>

const refuseAnyWhileTransferActive: KeychainsDeletionGuard = async (db, keychainIds, now) =>
  (
    await db
      .selectDistinct({ id: transfers.keychainId })
      .from(transfers)
      .where(and(inArray(transfers.keychainId, keychainIds), openWhere(now)))
  ).map((row) => row.id)

export const keychainsDeletionGuards: KeychainsDeletionGuard[] = [refuseAnyWhileTransferActive]
