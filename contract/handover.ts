import * as v from 'valibot'
import { pageOf } from './common.ts'
import { HANDOVER_REFUSALS } from './handover-check.ts'
import { PersonSchema } from './person.ts'

/** `POST /handovers`: the signed offer and acceptance, as the two phones exchanged them. */
export const HandoverSubmitSchema = v.strictObject({
  offer: v.pipe(v.string('offer is required.'), v.maxLength(1000, 'offer is too long.')),
  acceptance: v.pipe(v.string('acceptance is required.'), v.maxLength(500, 'acceptance is too long.')),
})

export const HANDOVER_STATUSES = ['APPLIED', 'REFUSED'] as const

/** A handover the server has had: applied, or refused for a reason both sides and the managers see. */
export const HandoverSchema = v.object({
  /** The offer's digest (`offerIdOf`), base64url. */
  id: v.string(),
  status: v.picklist(HANDOVER_STATUSES),
  reason: v.nullable(v.picklist(HANDOVER_REFUSALS)),
  keychain: v.object({ id: v.string(), name: v.string() }),
  giver: v.nullable(PersonSchema),
  receiver: v.nullable(PersonSchema),
  giverDeviceId: v.string(),
  receiverDeviceId: v.string(),
  /** The giver's device time, then the receiver's, then the server's. */
  offeredAt: v.string(),
  acceptedAt: v.string(),
  receivedAt: v.string(),
  /** Who sent it first: the giver's phone or the receiver's. */
  sentBy: v.nullable(PersonSchema),
})
export type Handover = v.InferOutput<typeof HandoverSchema>
export const HandoverPageSchema = pageOf(HandoverSchema)

export const HandoverParamsSchema = v.object({
  id: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{43}$/, 'Malformed handover id.')),
})

export const HandoverListQuerySchema = v.object({
  cursor: v.optional(v.pipe(v.string(), v.maxLength(512))),
  status: v.optional(v.picklist(HANDOVER_STATUSES, 'status must be APPLIED or REFUSED.')),
})

// --- the receipt and the published keys, checked by `npm run verify-handover` -------------------------------------

export const RECEIPT_FORMAT = 'trousseau-handover-receipt/1'
export const DEVICE_KEYS_FORMAT = 'trousseau-device-keys/1'

/** What the server adds to the two signed codes, under its own (Ed25519, the ledger's) signature. */
const ReceiptRecordSchema = v.strictObject({
  keychainName: v.string(),
  giverName: v.string(),
  receiverName: v.string(),
  appliedAt: v.string(),
  /** The handover's number in the organization's event log (its hash chain). */
  eventSeq: v.number(),
})

export const HandoverReceiptSchema = v.strictObject({
  format: v.literal(RECEIPT_FORMAT),
  organizationId: v.string(),
  handoverId: v.string(),
  offer: v.string(),
  acceptance: v.string(),
  record: ReceiptRecordSchema,
  server: v.strictObject({ keyId: v.string(), signature: v.string() }),
})
export type HandoverReceipt = v.InferOutput<typeof HandoverReceiptSchema>

const PublishedDeviceKeySchema = v.strictObject({
  id: v.string(),
  userId: v.string(),
  publicKey: v.string(),
  registeredAt: v.string(),
  expiresAt: v.string(),
  revokedAt: v.nullable(v.string()),
})

/** `GET /handovers/keys`: every device key of the organization's members, revoked ones included, and the server's. */
export const DeviceKeysFileSchema = v.strictObject({
  format: v.literal(DEVICE_KEYS_FORMAT),
  organizationId: v.string(),
  server: v.strictObject({ keyId: v.string(), publicKey: v.string() }),
  devices: v.array(PublishedDeviceKeySchema),
})
export type DeviceKeysFile = v.InferOutput<typeof DeviceKeysFileSchema>

/** The one spelling of a receipt: its fields in schema order, two-space indent, a final newline. */
export function receiptJson(receipt: HandoverReceipt): string {
  const { format, organizationId, handoverId, offer, acceptance, record, server } = receipt
  const { keychainName, giverName, receiverName, appliedAt, eventSeq } = record
  const ordered = {
    format,
    organizationId,
    handoverId,
    offer,
    acceptance,
    record: { keychainName, giverName, receiverName, appliedAt, eventSeq },
    server: { keyId: server.keyId, signature: server.signature },
  }
  return `${JSON.stringify(ordered, null, 2)}\n`
}

/** What the server signs: the receipt in its one spelling with an empty signature. */
export function receiptStatement(receipt: HandoverReceipt): string {
  return receiptJson({ ...receipt, server: { keyId: receipt.server.keyId, signature: '' } })
}
