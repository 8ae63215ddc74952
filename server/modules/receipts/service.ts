import { asc, eq } from 'drizzle-orm'
import type { Acceptance, Receipt } from '../../../contract/receipts.ts'
import { PHOTO_DATA_URL_PREFIX } from '../../../contract/receipts.ts'
import type { Db } from '../../db/client.ts'
import {
  keys,
  type ReceiptDetails,
  type TransferReceiptRow,
  transferReceipts,
  type UserRow,
  users,
} from '../../db/schema.ts'
import { notFound } from '../../http/errors.ts'
import { memberRole } from '../../http/member-role.ts'
import { enqueueJobs } from '../../jobs/queue.ts'
import { displayName } from '../../shared/person.ts'
import type { TransferViewRow } from '../../shared/transfer-view.ts'
import { appendEvent } from '../events/append.ts'
import { receiptMailJob } from './mail.ts'

/** An acceptance as the route checked it: the photo already decoded and within its limits. */
export type CheckedAcceptance = {
  typedName: string | null
  signature: string | null
  photo: Uint8Array | null
}

export function checkedAcceptance(
  acceptance: Acceptance,
  photoBytes: (dataUrl: string) => Uint8Array,
): CheckedAcceptance {
  return {
    typedName: acceptance.typedName?.trim() || null,
    signature: acceptance.signature ?? null,
    photo: acceptance.photo ? photoBytes(acceptance.photo) : null,
  }
}

const party = (user: UserRow) => ({ id: user.id, name: displayName(user), email: user.email })

/**
 * Writes the receipt of a first pickup, in the pickup's transaction (so a replay of the pickup's
 * Idempotency-Key writes nothing twice): a snapshot of what was handed over and to whom, the acceptance, a
 * ledger event, and the PDF mailed to both parties (rendered when the job runs).
 */
export async function recordReceipt(
  tx: Db,
  input: {
    view: TransferViewRow
    pickupId: string
    /** The custodian before the pickup (null: nobody held it). */
    previousCustodianId: string | null
    acceptance: CheckedAcceptance
    acceptedAt: Date
    clientTime: Date | null
    fromQueue: boolean
    now: Date
  },
): Promise<void> {
  const { view, now } = input
  const { transfer, organization, recipient } = view
  const giverId = input.previousCustodianId ?? view.authorizer?.id ?? null
  const [giver] = giverId ? await tx.select().from(users).where(eq(users.id, giverId)) : []
  const keyRows = await tx
    .select({ name: keys.name, type: keys.type })
    .from(keys)
    .where(eq(keys.keychainId, transfer.keychainId))
    .orderBy(asc(keys.seq))
  const details: ReceiptDetails = {
    organization: { id: organization.id, name: organization.name },
    keychain: { id: transfer.keychainId, name: view.keychainName ?? transfer.keychainName },
    keys: keyRows,
    fromDate: transfer.fromDate,
    toDate: transfer.toDate,
    recipient: party(recipient),
    handedOverBy: giver ? party(giver) : null,
  }
  const [receipt] = await tx
    .insert(transferReceipts)
    .values({
      organizationId: organization.id,
      transferId: transfer.id,
      pickupId: input.pickupId,
      recipientId: recipient.id,
      handedOverById: giver?.id ?? null,
      details,
      ...input.acceptance,
      locale: recipient.locale,
      acceptedAt: input.acceptedAt,
      clientTime: input.clientTime,
      serverTime: now,
      fromQueue: input.fromQueue,
    })
    .returning({ id: transferReceipts.id })
  // Stryker disable next-line all: an insert returns its row
  if (!receipt) throw new Error('the receipt was not written')
  const readers = [recipient, ...(giver && giver.id !== recipient.id ? [giver] : [])]
  await enqueueJobs(
    tx,
    readers.map((reader) =>
      receiptMailJob({ receiptId: receipt.id, userId: reader.id }, { now, organizationId: organization.id }),
    ),
  )
  await appendEvent(tx, {
    organizationId: organization.id,
    kind: 'transfer.receipt_signed',
    actorId: recipient.id,
    serverTime: now,
    clientTime: input.clientTime,
    fromQueue: input.fromQueue,
    keychainIds: [transfer.keychainId],
    transferIds: [transfer.id],
    payload: {
      receiptId: receipt.id,
      typedName: input.acceptance.typedName !== null,
      signature: input.acceptance.signature !== null,
      photo: input.acceptance.photo !== null,
    },
  })
}

async function findReceiptRow(db: Db, transferId: string): Promise<TransferReceiptRow | null> {
  const [row] = await db.select().from(transferReceipts).where(eq(transferReceipts.transferId, transferId))
  return row ?? null
}

/**
 * The receipt of a transfer for a reader: the organization's ADMIN or MANAGER, or one of its two parties (while
 * a member of the organization); anyone else, another organization's people included, gets 404.
 */
export async function readableReceipt(
  db: Db,
  transferId: string,
  userId: string,
): Promise<TransferReceiptRow> {
  const row = await findReceiptRow(db, transferId)
  if (!row) throw notFound('No receipt for this transfer.')
  const role = await memberRole(db, userId, row.organizationId)
  const party = userId === row.recipientId || userId === row.handedOverById
  if (role === 'ADMIN' || role === 'MANAGER' || (role !== null && party)) return row
  throw notFound('No receipt for this transfer.')
}

export function toReceipt(row: TransferReceiptRow): Receipt {
  const { details } = row
  return {
    id: row.id,
    transferId: row.transferId,
    organization: details.organization,
    keychain: details.keychain,
    keys: details.keys,
    fromDate: details.fromDate,
    toDate: details.toDate,
    recipient: details.recipient,
    handedOverBy: details.handedOverBy,
    acceptedAt: row.acceptedAt.toISOString(),
    clientTime: row.clientTime?.toISOString() ?? null,
    serverTime: row.serverTime.toISOString(),
    fromQueue: row.fromQueue,
    typedName: row.typedName,
    signature: row.signature,
    photo: row.photo ? `${PHOTO_DATA_URL_PREFIX}${Buffer.from(row.photo).toString('base64')}` : null,
    locale: row.locale,
  }
}
