import * as v from 'valibot'
import { IdSchema, PageQuerySchema, pageOf } from './common.ts'
import { EVENT_KINDS } from './events.ts'
import { PersonSchema } from './person.ts'
import { CalendarDateSchema } from './transfers.ts'

/**
 * `GET /activity/verification`: whether the organization's event log is intact. Each event's hash covers the
 * previous one's: an edited or deleted entry breaks the chain from there (`brokenAt`, its number), and entries
 * cut off at the end leave fewer than the counter says.
 */
export const ChainCheckSchema = v.object({
  entries: v.number(),
  valid: v.boolean(),
  brokenAt: v.nullable(v.number()),
})
export type ChainCheck = v.InferOutput<typeof ChainCheckSchema>

/**
 * `GET /activity/head`: the log's last entry (seq 0 and hash '' before the first), signed now by the server's
 * ledger key: "at `signedAt`, entry `seq` of this organization's log had the chain hash `hash`". `token` is the
 * whole of it on one line, as exports and receipts carry it and `npm run verify:activity -- --head` reads it.
 */
export const SignedHeadSchema = v.object({
  organizationId: v.string(),
  seq: v.number(),
  hash: v.string(),
  signedAt: v.string(),
  keyId: v.string(),
  signature: v.string(),
  token: v.string(),
})
export type SignedHeadView = v.InferOutput<typeof SignedHeadSchema>

/** `GET /activity/public-key`: the key signed heads are checked with (Ed25519; the same for every organization). */
export const LedgerPublicKeySchema = v.object({
  algorithm: v.literal('Ed25519'),
  keyId: v.string(),
  /** The raw 32-byte public key, base64url. */
  publicKey: v.string(),
  /** The same as a PEM `PUBLIC KEY`. */
  pem: v.string(),
})
export type LedgerPublicKey = v.InferOutput<typeof LedgerPublicKeySchema>

/** One entry of the organization's ledger: what happened, who did it, when (device and server time). */
export const ActivityEntrySchema = v.object({
  seq: v.number(),
  kind: v.picklist(EVENT_KINDS),
  actor: v.nullable(PersonSchema),
  serverTime: v.string(),
  /** When the device says it happened, for an action replayed from its offline queue. */
  clientTime: v.nullable(v.string()),
  fromQueue: v.boolean(),
  keychainIds: v.array(v.string()),
  tagIds: v.array(v.string()),
  transferIds: v.array(v.string()),
  payload: v.record(v.string(), v.unknown()),
})
export type ActivityEntry = v.InferOutput<typeof ActivityEntrySchema>

/**
 * What the entries of a page (and the view's own filters) point at, by id, read in one statement per page:
 * keychains (their name now, and whether deleted; an id missing here is gone for good, the entry's recorded name
 * stands in), tags (code and name), people (the custodians, recipients and members an entry names), transfers
 * (recipient and window).
 */
const ActivityRefsSchema = v.object({
  keychains: v.record(v.string(), v.object({ name: v.string(), deleted: v.boolean() })),
  tags: v.record(v.string(), v.object({ code: v.string(), name: v.string() })),
  people: v.record(v.string(), PersonSchema),
  transfers: v.record(
    v.string(),
    v.object({ recipientId: v.string(), fromDate: v.string(), toDate: v.string() }),
  ),
})
export type ActivityRefs = v.InferOutput<typeof ActivityRefsSchema>

export const ActivityPageSchema = v.object({
  ...pageOf(ActivityEntrySchema).entries,
  refs: ActivityRefsSchema,
})

/**
 * `GET /activity` and its CSV export: newest first; `kind`, the person who did it, a keychain or tag it touched,
 * calendar days (the organization's time zone, both included), and `q`, words searched in what the entry names:
 * its keychains (their name now, or the name it recorded), keys, tags (code or name) and who did it.
 */
export const ActivityQuerySchema = v.object({
  ...PageQuerySchema.entries,
  q: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100, 'Search at most 100 characters.'))),
  kind: v.optional(v.picklist(EVENT_KINDS, 'Unknown kind of entry.')),
  person: v.optional(IdSchema),
  keychain: v.optional(IdSchema),
  tag: v.optional(IdSchema),
  from: v.optional(CalendarDateSchema),
  to: v.optional(CalendarDateSchema),
})
export type ActivityQuery = v.InferOutput<typeof ActivityQuerySchema>
