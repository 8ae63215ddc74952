import * as v from 'valibot'
import { IdSchema, listOf, PageQuerySchema, PersonSchema, pageOf, requiredText } from './common.ts'

export const KEY_TYPES = ['TAG', 'KEY'] as const
export const KeyTypeSchema = v.picklist(KEY_TYPES, 'Type must be TAG or KEY.')
export type KeyType = (typeof KEY_TYPES)[number]

const KeyNameSchema = requiredText(120, 'Key name is required.', 'Key name is too long.')

export const KeySchema = v.object({
  id: v.string(),
  name: v.string(),
  type: KeyTypeSchema,
  tag: v.nullable(v.object({ id: v.string(), publicId: v.string(), code: v.string(), name: v.string() })),
})
export type Key = v.InferOutput<typeof KeySchema>

/** A KEY is a plain metal key; a TAG key names one unused tag of the organization. */
export const KeyCreateSchema = v.variant(
  'type',
  [
    v.strictObject({ type: v.literal('KEY'), name: KeyNameSchema }),
    v.strictObject({ type: v.literal('TAG'), name: KeyNameSchema, tagId: IdSchema }),
  ],
  'Type must be TAG or KEY.',
)
export type KeyCreate = v.InferInput<typeof KeyCreateSchema>

export const KeyUpdateSchema = v.strictObject({ name: KeyNameSchema })

export const KeychainSchema = v.object({
  id: v.string(),
  organizationId: v.string(),
  organizationName: v.string(),
  name: v.string(),
  custodian: v.nullable(PersonSchema),
  keys: v.array(KeySchema),
  createdAt: v.string(),
  updatedAt: v.string(),
})
export type Keychain = v.InferOutput<typeof KeychainSchema>

export const KeychainSummarySchema = v.object({
  id: v.string(),
  name: v.string(),
  custodian: v.nullable(PersonSchema),
  keyCount: v.number(),
  tagCodes: v.array(v.string()),
  updatedAt: v.string(),
})
export type KeychainSummary = v.InferOutput<typeof KeychainSummarySchema>
export const KeychainPageSchema = pageOf(KeychainSummarySchema)

/** Lists are ordered by name; `q` matches part of the name (case-insensitive). */
export const KeychainListQuerySchema = v.object({
  ...PageQuerySchema.entries,
  q: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(120))),
  custodianId: v.optional(IdSchema),
})

const KeychainNameSchema = requiredText(120, 'Name is required.', 'Name is too long.')
const ReasonSchema = v.optional(v.pipe(v.string(), v.trim(), v.maxLength(300, 'Reason is too long.')), '')

export const KeychainCreateSchema = v.strictObject({
  name: KeychainNameSchema,
  /** A member of the selected organization; null or absent: nobody holds it yet. */
  custodianId: v.optional(v.nullable(IdSchema), null),
  /**
   * Its first key, made in the same transaction (pairing a scanned free tag: a keychain never exists without
   * its tag, even when an offline replay is cut short).
   */
  firstKey: v.optional(KeyCreateSchema),
})
export type KeychainCreate = v.InferInput<typeof KeychainCreateSchema>

export const KeychainUpdateSchema = v.strictObject({
  name: v.optional(KeychainNameSchema),
  custodianId: v.optional(v.nullable(IdSchema)),
  /** Why the custodian changed; kept in the custody log. */
  reason: ReasonSchema,
})
export type KeychainUpdate = v.InferInput<typeof KeychainUpdateSchema>

/**
 * The `reason` the server writes in the custody log for a transfer's moves; the UI shows them in the reader's
 * language (other reasons are what a person typed).
 */
export const TRANSFER_CUSTODY_REASONS = { PICKUP: 'Transfer pickup', RETURN: 'Transfer return' } as const

export const CustodyEntrySchema = v.object({
  id: v.string(),
  at: v.string(),
  by: v.nullable(PersonSchema),
  from: v.nullable(PersonSchema),
  to: v.nullable(PersonSchema),
  reason: v.string(),
})
export type CustodyEntry = v.InferOutput<typeof CustodyEntrySchema>
export const CustodyLogSchema = listOf(CustodyEntrySchema)

/**
 * Optional headers of keychain creation and key addition: with an `Idempotency-Key` (the offline outbox's pairing
 * of a scanned tag) the request runs once per key and a replay answers the same.
 */
export const KeychainWriteHeadersSchema = v.object({
  'idempotency-key': v.optional(v.pipe(v.string(), v.uuid('The Idempotency-Key header must be a UUID.'))),
  'x-client-time': v.optional(v.string()),
  'x-from-queue': v.optional(v.picklist(['0', '1'], 'The X-From-Queue header must be 0 or 1.')),
})

export const KeyParamsSchema = v.object({ id: IdSchema, keyId: IdSchema })
