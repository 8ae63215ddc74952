import * as v from 'valibot'
import { PageQuerySchema, pageOf } from './common.ts'
import { EVENT_KINDS, type EventKind } from './events.ts'
import { KeyTypeSchema } from './keychains.ts'
import { MemberSchema } from './organizations.ts'
import { PersonSchema } from './person.ts'
import { TransferStatusSchema } from './transfers.ts'

/*
 * The organization's reports (ADMIN and MANAGER, `read__activity`): what a person holds now, overdue transfers,
 * keychains nobody scanned for a while, and the activity of each month. Each is a screen and a CSV export.
 */

const PersonIdSchema = v.pipe(v.string(), v.uuid('Malformed id.'))

/** `?person=` of the departure report: a member of the selected organization (anyone else is a 404). */
export const HoldingsQuerySchema = v.object({
  ...PageQuerySchema.entries,
  // Missing, it reads as empty: the message then names what to do rather than the missing key.
  person: v.pipe(v.optional(v.string(), ''), v.nonEmpty('Choose a person.'), v.uuid('Malformed id.')),
})
export type HoldingsQuery = v.InferOutput<typeof HoldingsQuerySchema>

const HeldKeySchema = v.object({
  name: v.string(),
  type: KeyTypeSchema,
  /** The tag's human code, for a TAG key. */
  tagCode: v.nullable(v.string()),
})
export type HeldKey = v.InferOutput<typeof HeldKeySchema>

/** A keychain in the person's custody, with its keys; `dueBack` when they hold it through a transfer. */
const HeldKeychainSchema = v.object({
  id: v.string(),
  name: v.string(),
  /** When custody last passed to them (null when nothing recorded it, e.g. imported keychains). */
  since: v.nullable(v.string()),
  keys: v.array(HeldKeySchema),
  dueBack: v.nullable(v.object({ transferId: v.string(), toDate: v.string(), overdue: v.boolean() })),
})
export type HeldKeychain = v.InferOutput<typeof HeldKeychainSchema>

/** A page of the keychains the person holds, by name, and who they are in the organization. */
export const HoldingsPageSchema = v.object({
  person: MemberSchema,
  data: v.array(HeldKeychainSchema),
  nextCursor: v.nullable(v.string()),
})
export type HoldingsPage = v.InferOutput<typeof HoldingsPageSchema>

/** A transfer addressed to the person that still concerns them (SCHEDULED and not expired, or out). */
const OpenTransferSchema = v.object({
  id: v.string(),
  keychainId: v.string(),
  keychainName: v.string(),
  fromDate: v.string(),
  toDate: v.string(),
  status: TransferStatusSchema,
  expired: v.boolean(),
})
export type OpenTransfer = v.InferOutput<typeof OpenTransferSchema>
export const OpenTransferPageSchema = pageOf(OpenTransferSchema)

/** `?person=` narrows the overdue report to one recipient. */
export const OverdueQuerySchema = v.object({
  ...PageQuerySchema.entries,
  person: v.optional(PersonIdSchema),
})
export type OverdueQuery = v.InferOutput<typeof OverdueQuerySchema>

/** Picked up and not back a day after its to-date: most overdue first. */
const OverdueTransferSchema = v.object({
  id: v.string(),
  keychainId: v.string(),
  keychainName: v.string(),
  recipient: PersonSchema,
  fromDate: v.string(),
  toDate: v.string(),
  pickedUpAt: v.nullable(v.string()),
  /** Whole days since the to-date, in the organization's time zone. */
  daysLate: v.number(),
})
export type OverdueTransfer = v.InferOutput<typeof OverdueTransferSchema>
export const OverduePageSchema = pageOf(OverdueTransferSchema)

export const UNSEEN_DAYS_DEFAULT = 30
export const UNSEEN_DAYS_MAX = 3650

/** `?days=N`: keychains with no scan of their tags since the start of the day N days ago (organization's zone). */
export const UnseenQuerySchema = v.object({
  ...PageQuerySchema.entries,
  days: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,5}$/, 'days must be a whole number.'),
      v.metadata({ description: `A whole number from 1 to ${UNSEEN_DAYS_MAX}.` }),
      v.transform(Number),
      v.minValue(1, 'days must be at least 1.'),
      v.maxValue(UNSEEN_DAYS_MAX, `days must be at most ${UNSEEN_DAYS_MAX}.`),
    ),
  ),
  /** Only the keychains this person holds. */
  person: v.optional(PersonIdSchema),
})
export type UnseenQuery = v.InferOutput<typeof UnseenQuerySchema>

/** Never scanned first, then the longest unseen. */
const UnseenKeychainSchema = v.object({
  id: v.string(),
  name: v.string(),
  custodian: v.nullable(PersonSchema),
  tagCodes: v.array(v.string()),
  /** The last scan of one of its tags by a member; null: never (or it has no tag to scan). */
  lastScanAt: v.nullable(v.string()),
})
export type UnseenKeychain = v.InferOutput<typeof UnseenKeychainSchema>
export const UnseenPageSchema = pageOf(UnseenKeychainSchema)

export const MONTHS_MAX = 36
const MonthSchema = v.pipe(
  v.string(),
  v.regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'Months are written YYYY-MM.'),
  v.metadata({ pattern: '^\\d{4}-(0[1-9]|1[0-2])$' }),
)

/** The number of months from `from` to `to`, both included (0 or less when `to` comes first). */
export function monthSpan(from: string, to: string): number {
  const index = (month: string) => Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1
  return index(to) - index(from) + 1
}

/** Calendar months of the organization's zone, both included; without them, the last twelve. */
export const MonthlyQuerySchema = v.pipe(
  v.object({ from: v.optional(MonthSchema), to: v.optional(MonthSchema) }),
  v.forward(
    v.check(
      ({ from, to }) => !from || !to || monthSpan(from, to) >= 1,
      'The last month comes before the first.',
    ),
    ['to'],
  ),
  v.forward(
    v.check(
      ({ from, to }) => !from || !to || monthSpan(from, to) <= MONTHS_MAX,
      `At most ${MONTHS_MAX} months at a time.`,
    ),
    ['to'],
  ),
)
export type MonthlyQuery = v.InferOutput<typeof MonthlyQuerySchema>

/**
 * The kinds of entry the monthly report counts: all but the scans' own entries, since it counts the scans from
 * the scans themselves (those made before scans were logged included): once, not twice.
 */
export type MonthlyKind = Exclude<EventKind, 'scan.recorded'>
export const MONTHLY_KINDS = EVENT_KINDS.filter((kind): kind is MonthlyKind => kind !== 'scan.recorded')

/** One month: its scans by members, its other ledger entries, and those entries by kind. */
const MonthActivitySchema = v.object({
  month: v.string(),
  scans: v.number(),
  entries: v.number(),
  byKind: v.record(v.picklist(MONTHLY_KINDS), v.number()),
})
export type MonthActivity = v.InferOutput<typeof MonthActivitySchema>
export const MonthlyActivitySchema = v.object({
  from: v.string(),
  to: v.string(),
  months: v.array(MonthActivitySchema),
})
export type MonthlyActivity = v.InferOutput<typeof MonthlyActivitySchema>

/** A person disabled in the organization who still holds keychains or has transfers open (`GET /reports/leavers`). */
const LeaverSchema = v.object({
  person: PersonSchema,
  keychains: v.number(),
  transfers: v.number(),
})
export type Leaver = v.InferOutput<typeof LeaverSchema>
export const LeaverListSchema = v.object({ data: v.array(LeaverSchema) })
