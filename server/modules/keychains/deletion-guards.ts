import type { Db } from '../../db/client.ts'
import { hasOpenTransfer } from '../transfers/conditions.ts'

/**
 * Reasons a keychain cannot be deleted right now, checked inside the deleting transaction (the keychain row
 * locked); a guard answers a message for the 409, or null to let the deletion through.
 */
export type KeychainDeletionGuard = (db: Db, keychainId: string, now: Date) => Promise<string | null>

/** An open transfer (SCHEDULED not expired, TRANSFERRED, RETURNING) still concerns the keychain. */
export const refuseWhileTransferActive: KeychainDeletionGuard = async (db, keychainId, now) =>
  (await hasOpenTransfer(db, keychainId, now))
    ? 'This keychain has an active transfer: cancel it, or wait for the keychain to come back, before deleting it.'
    : null

export const keychainDeletionGuards: KeychainDeletionGuard[] = [refuseWhileTransferActive]
