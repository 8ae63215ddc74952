import * as v from 'valibot'
import { IdSchema } from './common.ts'
import { CalendarDateSchema, TransferRecipientSchema } from './transfers.ts'

/** At most this many keychains per bulk action, named by id or matched by a filter (400 over it). */
export const BULK_KEYCHAINS_MAX = 500

/** "All matching": the keychain list's own filter (part of the name, custodian), resolved by the server. */
const BulkFilterSchema = v.strictObject({
  q: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(120))),
  custodianId: v.optional(IdSchema),
})
export type BulkFilter = v.InferOutput<typeof BulkFilterSchema>

const IdsSchema = v.pipe(
  v.array(IdSchema),
  v.minLength(1, 'Select at least one keychain.'),
  v.maxLength(BULK_KEYCHAINS_MAX, `Select at most ${BULK_KEYCHAINS_MAX} keychains.`),
)

/** Which keychains: `ids` (the rows ticked), or `filter` (all matching); exactly one of the two. */
const selectionEntries = { ids: v.optional(IdsSchema), filter: v.optional(BulkFilterSchema) }

const oneSelection = <T extends { ids?: string[] | undefined; filter?: BulkFilter | undefined }>() =>
  v.check<T, string>(
    (input) => (input.ids === undefined) !== (input.filter === undefined),
    'Give either ids or a filter.',
  )

export type BulkSelection = { ids?: string[] | undefined; filter?: BulkFilter | undefined }

export const BulkHeadersSchema = v.object(
  {
    'idempotency-key': v.pipe(
      v.string('The Idempotency-Key header is required.'),
      v.uuid('The Idempotency-Key header must be a UUID.'),
    ),
  },
  'The Idempotency-Key header is required.',
)

const ReasonSchema = v.optional(v.pipe(v.string(), v.trim(), v.maxLength(300, 'Reason is too long.')), '')

export const BulkCustodianSchema = v.pipe(
  v.strictObject({
    ...selectionEntries,
    /** A member of the organization; null: nobody holds them. */
    custodianId: v.nullable(IdSchema),
    /** Why; written in each keychain's custody log. */
    reason: ReasonSchema,
  }),
  oneSelection(),
)
export type BulkCustodian = v.InferInput<typeof BulkCustodianSchema>

export const BulkDeletionSchema = v.pipe(v.strictObject({ ...selectionEntries }), oneSelection())
export type BulkDeletion = v.InferInput<typeof BulkDeletionSchema>

export const BulkTransferSchema = v.pipe(
  v.strictObject({
    ...selectionEntries,
    recipient: TransferRecipientSchema,
    fromDate: CalendarDateSchema,
    toDate: CalendarDateSchema,
  }),
  oneSelection(),
  v.forward(
    v.partialCheck(
      [['fromDate'], ['toDate']],
      (input) => input.toDate > input.fromDate,
      'The to-date must be after the from-date.',
    ),
    ['toDate'],
  ),
)
export type BulkTransfer = v.InferInput<typeof BulkTransferSchema>

/** What a bulk action did: `count` keychains changed; `unchanged` already as asked (no entry written). */
export const BulkResultSchema = v.object({
  count: v.number(),
  unchanged: v.number(),
  /** The transfers authorized (bulk authorization only), in keychain id order. */
  transferIds: v.optional(v.array(v.string())),
})
export type BulkResult = v.InferOutput<typeof BulkResultSchema>

/**
 * At most this many ids in an export's URL: 200 ids are about 7.4 KB, well within the 16 KiB Node.js takes
 * for a request's head; more is exported with the list's filter ("all matching").
 */
export const EXPORT_IDS_MAX = 200

/** The export's selection: ids (comma-separated) or the list's filter; none: every keychain. */
export const KeychainExportQuerySchema = v.object({
  ids: v.optional(
    v.pipe(
      v.string(),
      v.transform((value) => value.split(',').filter((id) => id !== '')),
      v.array(IdSchema),
      v.minLength(1, 'Select at least one keychain.'),
      v.maxLength(EXPORT_IDS_MAX, `Export at most ${EXPORT_IDS_MAX} keychains by id; use a filter for more.`),
    ),
  ),
  q: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(120))),
  custodianId: v.optional(IdSchema),
})
export type KeychainExportQuery = v.InferOutput<typeof KeychainExportQuerySchema>
