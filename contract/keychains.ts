import * as v from 'valibot'
import { IdSchema, listOf, PageQuerySchema, pageOf, requiredText } from './common.ts'
import { PersonSchema } from './person.ts'
import { HookRefSchema, KEYCHAIN_WHEREABOUTS } from './whereabouts.ts'

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

/**
 * Where a keychain stands, as a list row shows it: FREE (nobody holds it), HELD (by its custodian), SCHEDULED (a
 * transfer is authorized, not picked up yet), OUT (picked up, due back at the transfer's end), OVERDUE (out and
 * its end has passed).
 */
const KEYCHAIN_STATUSES = ['FREE', 'HELD', 'SCHEDULED', 'OUT', 'OVERDUE'] as const
export type KeychainStatus = (typeof KEYCHAIN_STATUSES)[number]

export const KeychainSchema = v.object({
  id: v.string(),
  organizationId: v.string(),
  organizationName: v.string(),
  name: v.string(),
  custodian: v.nullable(PersonSchema),
  keys: v.array(KeySchema),
  createdAt: v.string(),
  updatedAt: v.string(),
  /** Where it stands and the transfer behind it, as on the list (absent from copies mirrored before issue 23). */
  status: v.optional(v.picklist(KEYCHAIN_STATUSES)),
  transfer: v.optional(v.nullable(v.object({ startsAt: v.string(), endsAt: v.string() }))),
  /** The sequence number of its last custody change (0: none): a handover offer's `base`. */
  custodySeq: v.optional(v.number()),
})
export type Keychain = v.InferOutput<typeof KeychainSchema>

const KeychainSummarySchema = v.object({
  id: v.string(),
  name: v.string(),
  custodian: v.nullable(PersonSchema),
  keyCount: v.number(),
  tagCodes: v.array(v.string()),
  updatedAt: v.string(),
  /** Absent from rows mirrored before issue 23 (offline copies); the server always sends them. */
  status: v.optional(v.picklist(KEYCHAIN_STATUSES)),
  /** The transfer behind SCHEDULED, OUT or OVERDUE: its window (the due date is `endsAt`). */
  transfer: v.optional(v.nullable(v.object({ startsAt: v.string(), endsAt: v.string() }))),
  /** Set on the rows of `status=deleted` only (a deleted keychain is in no other list). */
  deletedAt: v.optional(v.nullable(v.string())),
  /** Its home hook (absent from rows mirrored before issue 40; the server always sends them). */
  home: v.optional(v.nullable(HookRefSchema)),
  /** Where it is: held, on its home hook, misplaced on another hook, or unknown (`KeychainLocation`). */
  whereabouts: v.optional(v.picklist(KEYCHAIN_WHEREABOUTS)),
})
export type KeychainSummary = v.InferOutput<typeof KeychainSummarySchema>
export const KeychainPageSchema = v.object({
  ...pageOf(KeychainSummarySchema).entries,
  /** The keychain whose tag has exactly the code searched (`q`), to open directly; null otherwise. */
  tagMatch: v.optional(v.nullable(v.string())),
})

/**
 * The list's orders: name and holder in natural order ("Bureau 2" before "Bureau 18"), last change newest first,
 * place (its home's board by name, then the hook's position; keychains without a home last).
 */
export const KEYCHAIN_SORTS = ['name', 'holder', 'changed', 'place'] as const
export type KeychainSort = (typeof KEYCHAIN_SORTS)[number]
/** The list's status filters: one per status, `unheld` (no holder, whatever the transfer), `deleted` (to restore). */
export const KEYCHAIN_FILTERS = ['free', 'held', 'scheduled', 'out', 'overdue', 'unheld', 'deleted'] as const
export type KeychainFilter = (typeof KEYCHAIN_FILTERS)[number]

/**
 * Lists are ordered by `sort` (name by default); `q` matches part of the name, a tag's code or the holder's
 * name or e-mail (case-insensitive); `status` keeps one status; `placeId` keeps those whose home is in that place
 * (with everything under it). `status=deleted` needs the right to delete.
 */
export const KeychainListQuerySchema = v.object({
  ...PageQuerySchema.entries,
  q: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(120))),
  custodianId: v.optional(IdSchema),
  /** Keychains whose home is a hook of this place or of a place under it. */
  placeId: v.optional(IdSchema),
  sort: v.optional(v.picklist(KEYCHAIN_SORTS, 'sort must be name, holder, changed or place.')),
  status: v.optional(
    v.picklist(KEYCHAIN_FILTERS, 'status must be free, held, scheduled, out, overdue, unheld or deleted.'),
  ),
})

/** A keychain's name: the API's rule, which the forms that make or rename one check before sending. */
export const KEYCHAIN_NAME_MAX = 120
export const KeychainNameSchema = requiredText(KEYCHAIN_NAME_MAX, 'Name is required.', 'Name is too long.')
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
/** The custody log's reason of a handover from phone to phone (the screens name it in the reader's language). */
export const HANDOVER_CUSTODY_REASON = 'handover'

const CustodyEntrySchema = v.object({
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
