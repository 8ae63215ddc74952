import type { Db } from '../../db/client.ts'

/**
 * Reasons a keychain cannot be deleted right now, checked inside the deleting transaction. Empty until the
 * transfers issue: it adds `refuseWhileTransferActive` here ("refused while a transfer is active"); a guard
 * answers a message for the 409, or null to let the deletion through.
 */
export type KeychainDeletionGuard = (db: Db, keychainId: string) => Promise<string | null>

export const keychainDeletionGuards: KeychainDeletionGuard[] = []
