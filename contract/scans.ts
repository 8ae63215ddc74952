import * as v from 'valibot'
import { KeySchema } from './keychains.ts'
import type { Permission } from './permissions.ts'
import { PersonSchema } from './person.ts'
import { TagSchema } from './tags.ts'
import { TransferSchema } from './transfers.ts'

/** A tag URL (`…/tags/<publicId>`), a bare public id, or a human code such as `AGC-00042` (any case). */
export const ScanRequestSchema = v.strictObject({
  value: v.pipe(v.string('Value is required.'), v.trim(), v.nonEmpty('Value is required.'), v.maxLength(512)),
})

/** Header carrying the client-made UUID of a field action; a replay with the same key answers the same. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key'
/** Optional: when the device scanned (ISO 8601), e.g. long before the offline queue sent it. */
export const CLIENT_TIME_HEADER = 'X-Client-Time'
/** Optional: `1` when the request comes from the offline queue. */
export const FROM_QUEUE_HEADER = 'X-From-Queue'

/**
 * A time `v.isoTimestamp` accepts that is also one real instant, read as written by `new Date()`: refuses
 * what the regex lets through but `Date` cannot read (`+05` without minutes, a space before the offset) or
 * would silently move (`2024-02-31` is not March 2nd).
 */
export function isRealInstant(value: string): boolean {
  if (Number.isNaN(Date.parse(value))) return false
  const [year, month, day] = value.slice(0, 10).split('-').map(Number) as [number, number, number]
  // Year 0 parses in JavaScript but is no year of the calendar PostgreSQL stores (1 BC there).
  if (year < 1) return false
  const date = new Date(0)
  date.setUTCFullYear(year, month - 1, day)
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day
}

/** The headers of `POST /scans` (names in lower case, as HTTP/2 and fetch's Headers give them). */
export const ScanHeadersSchema = v.object(
  {
    'idempotency-key': v.pipe(
      v.string('The Idempotency-Key header is required.'),
      v.uuid('The Idempotency-Key header must be a UUID.'),
    ),
    'x-client-time': v.optional(
      v.pipe(
        v.string(),
        v.isoTimestamp('The X-Client-Time header must be an ISO 8601 time.'),
        v.check(isRealInstant, 'The X-Client-Time header must be an ISO 8601 time.'),
      ),
    ),
    'x-from-queue': v.optional(v.picklist(['0', '1'], 'The X-From-Queue header must be 0 or 1.')),
  },
  'The Idempotency-Key header is required.',
)

/**
 * The caller's permissions that concern what a scan finds (the keychain, its keys, its transfers): a resolved
 * scan lists those the caller has, online from the server, offline from the device's mirror.
 */
export const SCAN_ACTIONS: readonly Permission[] = [
  'read__keychain',
  'update__keychain',
  'delete__keychain',
  'create__key',
  'update__key',
  'delete__key',
  'create__transfer',
  'pickup__transfer',
]

export const ScanResultSchema = v.variant('status', [
  v.object({
    status: v.literal('resolved'),
    scanId: v.string(),
    tag: TagSchema,
    key: v.nullable(KeySchema),
    keychain: v.nullable(v.object({ id: v.string(), name: v.string(), custodian: v.nullable(PersonSchema) })),
    /** What the caller may do with it now (permission strings, e.g. `update__keychain`). */
    actions: v.array(v.string()),
    /**
     * The keychain's transfer that concerns the caller now, if any: the one out (TRANSFERRED or RETURNING),
     * else the caller's own SCHEDULED one whose window is open, else the next SCHEDULED one. Its `next` says
     * whether the caller may confirm a pickup or a return. A CONTACT resolves only tags of keychains with a
     * transfer addressed to them (others are `foreign`).
     */
    transfer: v.nullable(TransferSchema),
  }),
  /**
   * The tag (or an old QR of a tag reprinted since) was declared lost: it resolves to no keychain and offers no
   * action; the organization's admins are told it was scanned.
   */
  v.object({
    status: v.literal('lost'),
    scanId: v.string(),
    tag: v.object({ id: v.string(), code: v.string(), name: v.string(), lostAt: v.string() }),
  }),
  /** The tag belongs to another organization: only its public landing applies. */
  v.object({ status: v.literal('foreign'), scanId: v.string(), publicId: v.string() }),
  v.object({ status: v.literal('unknown'), scanId: v.string(), value: v.string() }),
])
export type ScanResult = v.InferOutput<typeof ScanResultSchema>
