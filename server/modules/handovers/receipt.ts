import { and, eq, inArray, or, sql } from 'drizzle-orm'
import {
  DEVICE_KEYS_FORMAT,
  type DeviceKeysFile,
  type HandoverReceipt,
  RECEIPT_FORMAT,
  receiptStatement,
} from '../../../contract/handover.ts'
import type { Db } from '../../db/client.ts'
import { deviceKeys, type HandoverRow, handovers, memberships, organizationEvents } from '../../db/schema.ts'
import { ledgerKeyOf } from '../activity/ledger-key.ts'

/** The number of the handover's entry in its organization's log (its place in the hash chain). */
async function eventSeqOf(db: Db, row: HandoverRow): Promise<number> {
  const [event] = await db
    .select({ seq: organizationEvents.seq })
    .from(organizationEvents)
    .where(
      and(
        eq(organizationEvents.organizationId, row.organizationId),
        eq(organizationEvents.kind, 'keychain.handed_over'),
        sql`${organizationEvents.keychainIds} @> array[${row.keychainId}]::uuid[]`,
        sql`${organizationEvents.payload}->>'handoverId' = ${row.id}`,
      ),
    )
  // Stryker disable next-line all: an applied handover's entry is written in the transaction that applies it
  if (!event) throw new Error(`no event for handover ${row.id}`)
  return event.seq
}

/**
 * `GET /handovers/{id}/receipt.json`: the two signed codes as the phones made them, what the server recorded of
 * them, under the server's (the ledger's Ed25519) signature of `receiptStatement`. Names are those kept when the
 * handover was applied: the same receipt, byte for byte, whenever it is asked for.
 */
export async function handoverReceipt(db: Db, secret: Buffer, row: HandoverRow): Promise<HandoverReceipt> {
  const key = ledgerKeyOf(secret)
  const unsigned: HandoverReceipt = {
    format: RECEIPT_FORMAT,
    organizationId: row.organizationId,
    handoverId: row.id,
    offer: row.offer,
    acceptance: row.acceptance,
    record: {
      keychainName: row.keychainName,
      giverName: row.giverName,
      receiverName: row.receiverName,
      appliedAt: row.receivedAt.toISOString(),
      eventSeq: await eventSeqOf(db, row),
    },
    server: { keyId: key.keyId, signature: '' },
  }
  return { ...unsigned, server: { keyId: key.keyId, signature: key.sign(receiptStatement(unsigned)) } }
}

/**
 * `GET /handovers/keys`: what checks any receipt of the organization without its database: the device keys of
 * everyone who is or was a member (any status), and of every device named by one of its handovers, revoked and
 * expired ones included, with the server's public key.
 */
export async function deviceKeysFile(
  db: Db,
  secret: Buffer,
  organizationId: string,
): Promise<DeviceKeysFile> {
  const key = ledgerKeyOf(secret)
  const members = db
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(eq(memberships.organizationId, organizationId))
  const named = (column: 'giverDeviceId' | 'receiverDeviceId') =>
    db.select({ id: handovers[column] }).from(handovers).where(eq(handovers.organizationId, organizationId))
  const rows = await db
    .select()
    .from(deviceKeys)
    .where(
      or(
        inArray(deviceKeys.userId, members),
        inArray(deviceKeys.id, named('giverDeviceId')),
        inArray(deviceKeys.id, named('receiverDeviceId')),
      ),
    )
    .orderBy(deviceKeys.userId, deviceKeys.registeredAt, deviceKeys.id)
  return {
    format: DEVICE_KEYS_FORMAT,
    organizationId,
    server: { keyId: key.keyId, publicKey: key.publicKey },
    devices: rows.map((row) => ({
      id: row.id,
      userId: row.userId,
      publicKey: row.publicKey,
      registeredAt: row.registeredAt.toISOString(),
      expiresAt: row.expiresAt.toISOString(),
      revokedAt: row.revokedAt?.toISOString() ?? null,
    })),
  }
}
