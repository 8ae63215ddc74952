import * as v from 'valibot'
import { EmailSchema } from './auth.ts'
import { IdSchema, listOf, PageQuerySchema, pageOf } from './common.ts'
import { LocaleSchema } from './locale-schema.ts'
import { AddressSchema } from './organizations.ts'
import { PersonSchema } from './person.ts'
import { TagSchema } from './tags.ts'

/**
 * Stored statuses plus RETURNING, which the server computes: a TRANSFERRED transfer is RETURNING from the start
 * of its to-date on. `expired` is a separate flag (see `TransferSchema`).
 */
export const TRANSFER_STATUSES = ['SCHEDULED', 'TRANSFERRED', 'RETURNING', 'RETURNED', 'CANCELLED'] as const
export type TransferStatus = (typeof TRANSFER_STATUSES)[number]
export const TransferStatusSchema = v.picklist(TRANSFER_STATUSES, 'Unknown transfer status.')

/** Statuses in which a transfer still concerns its keychain (blocks overlapping windows and deletion). */
export const ACTIVE_TRANSFER_STATUSES = [
  'SCHEDULED',
  'TRANSFERRED',
  'RETURNING',
] as const satisfies readonly TransferStatus[]

/** A RETURNING transfer is expired (overdue) this long after the start of its to-date. */
export const RETURN_GRACE_MS = 24 * 60 * 60 * 1000

/**
 * Offline field work: a pickup queued on the device and replayed later (`X-From-Queue: 1`) is judged by the
 * device's time (`X-Client-Time`) when that time is at most `CLOCK_SKEW_MS` after the server's and at most
 * `QUEUE_CLOCK_TOLERANCE_MS` before it (both bounds included); otherwise, or without the queue flag, by the
 * server's time. An untrusted device time never refuses the request: it is only not used. Only the window
 * rules (`before_window`, `window_closed`) depend on the time, so honest offline work inside the window is
 * accepted for three days, and a device clock set far back gains nothing beyond that.
 */
export const QUEUE_CLOCK_TOLERANCE_MS = 72 * 60 * 60 * 1000
/** How far ahead of the server a device clock may run and still be believed (see `judgedTime`). */
export const CLOCK_SKEW_MS = 5 * 60 * 1000

/**
 * The instant the pickup rules judge: `clientTime` when the request comes from the offline queue and
 * `clientTime` lies in `[serverNow - QUEUE_CLOCK_TOLERANCE_MS, serverNow + CLOCK_SKEW_MS]`, else `serverNow`.
 * Pure; the browser calls it too (with its own clock as `serverNow`) to tell whether a queued pickup will pass.
 */
export function judgedTime(serverNow: Date, clientTime: Date | null, fromQueue: boolean): Date {
  if (!fromQueue || clientTime === null) return serverNow
  const client = clientTime.getTime()
  const server = serverNow.getTime()
  if (Number.isNaN(client)) return serverNow
  if (client > server + CLOCK_SKEW_MS || client < server - QUEUE_CLOCK_TOLERANCE_MS) return serverNow
  return clientTime
}

/** A calendar day, `YYYY-MM-DD`, read in the organization's time zone (Europe/Paris by default). */
/** Named so that the API document can state it (`format: date`). */
export const existingCalendarDate = v.check(
  (value: string) => isCalendarDate(value),
  'This date does not exist.',
)

export const CalendarDateSchema = v.pipe(
  v.string('Date is required.'),
  v.regex(/^\d{4}-\d{2}-\d{2}$/, 'Dates are written YYYY-MM-DD.'),
  existingCalendarDate,
)

export function isCalendarDate(value: string): boolean {
  const [year, month, day] = value.split('-').map(Number) as [number, number, number]
  const date = new Date(Date.UTC(year, month - 1, day))
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
}

/** The calendar day `days` after a `YYYY-MM-DD` day (negative: before). */
export function shiftCalendarDay(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`)
  date.setUTCDate(date.getUTCDate() + days)
  return date.toISOString().slice(0, 10)
}

/**
 * Who receives the keychain: a member or CONTACT of the organization by id, or an e-mail address. An address
 * that is already a member's is that member; any other is invited into the organization as CONTACT in the same
 * step (the transfer mail is their invitation; `locale` is its language when the address has no account yet).
 */
export const TransferRecipientSchema = v.variant(
  'kind',
  [
    v.strictObject({ kind: v.literal('member'), userId: IdSchema }),
    v.strictObject({ kind: v.literal('email'), email: EmailSchema, locale: v.optional(LocaleSchema) }),
  ],
  'Recipient is required.',
)

/**
 * `POST /keychains/{id}/transfers`. The window runs from the start of `fromDate` to the start of `toDate`
 * (organization time zone): the first pickup happens inside it; `toDate` is the day the keychain is due back.
 * `fromDate` is today or later; `toDate` is after `fromDate`; no other active transfer of the keychain may
 * overlap the window (409).
 */
export const TransferCreateSchema = v.pipe(
  v.strictObject({
    recipient: TransferRecipientSchema,
    fromDate: CalendarDateSchema,
    toDate: CalendarDateSchema,
  }),
  v.forward(
    v.partialCheck(
      [['fromDate'], ['toDate']],
      (input) => input.toDate > input.fromDate,
      'The to-date must be after the from-date.',
    ),
    ['toDate'],
  ),
)
export type TransferCreate = v.InferInput<typeof TransferCreateSchema>

export const PICKUP_KINDS = ['PICKUP', 'RETURN'] as const
export type PickupKind = (typeof PICKUP_KINDS)[number]

const PickupSchema = v.object({
  id: v.string(),
  kind: v.picklist(PICKUP_KINDS),
  by: PersonSchema,
  /** When the device says it happened (the offline queue sends it), else null. */
  clientTime: v.nullable(v.string()),
  serverTime: v.string(),
  fromQueue: v.boolean(),
})
export type Pickup = v.InferOutput<typeof PickupSchema>

/** Why a pickup is refused (409 `pickup_refused`, `reason`). */
export const PICKUP_REFUSALS = [
  /** The first pickup is the recipient's. */
  'not_recipient',
  /** Returns are confirmed by a MEMBER or above of the organization. */
  'not_member',
  /** The recipient does not confirm their own return: someone at the organization receives the keychain. */
  'own_return',
  /** Before the start of the from-date. */
  'before_window',
  /** SCHEDULED and the to-date has come: the transfer expired unused. */
  'window_closed',
  'cancelled',
  'already_returned',
  /** Another transfer of the keychain is still out (picked up, not returned). */
  'keychain_out',
] as const
export type PickupRefusal = (typeof PICKUP_REFUSALS)[number]

/** A holder's request for a later to-date, and what a manager decided. */
export const EXTENSION_STATUSES = ['PENDING', 'APPROVED', 'REFUSED'] as const

/** `POST /transfers/{id}/extensions`: the to-date the holder asks for (after the current one). */
export const ExtensionRequestSchema = v.strictObject({ toDate: CalendarDateSchema })

export const ExtensionParamsSchema = v.object({ id: IdSchema, extensionId: IdSchema })

/** `POST /transfers/{id}/extensions/{extensionId}`: a manager's answer. */
export const ExtensionDecisionSchema = v.strictObject({
  decision: v.picklist(['approve', 'refuse'], 'Decision must be approve or refuse.'),
})

/** Why an extension request is refused (409 `extension_refused`, `reason`). */
const EXTENSION_REFUSALS = [
  /** Only the transfer's recipient asks for more time. */
  'not_recipient',
  /** Returned, cancelled, or expired unused: there is nothing to extend. */
  'closed',
  /** A request waits for an answer already. */
  'pending',
] as const
export type ExtensionRefusal = (typeof EXTENSION_REFUSALS)[number]

const TransferExtensionSchema = v.object({
  id: v.string(),
  status: v.picklist(EXTENSION_STATUSES),
  /** The to-date asked for, and the one it would replace. */
  toDate: v.string(),
  previousToDate: v.string(),
  requestedAt: v.string(),
  decidedAt: v.nullable(v.string()),
})
export type TransferExtension = v.InferOutput<typeof TransferExtensionSchema>

export const TransferSchema = v.object({
  id: v.string(),
  organizationId: v.string(),
  organizationName: v.string(),
  /**
   * `tags`: the tags on the keychain's keys now (none once it is deleted). They let a recipient's device
   * recognise the keychain's tags offline, which a CONTACT cannot list otherwise.
   */
  keychain: v.object({ id: v.string(), name: v.string(), tags: v.array(TagSchema) }),
  recipient: PersonSchema,
  authorizedBy: v.nullable(PersonSchema),
  fromDate: v.string(),
  toDate: v.string(),
  /** The window as instants: start of `fromDate`, start of `toDate`, in the organization's time zone. */
  startsAt: v.string(),
  endsAt: v.string(),
  status: TransferStatusSchema,
  /** SCHEDULED past `endsAt`, or RETURNING more than `RETURN_GRACE_MS` past it. */
  expired: v.boolean(),
  /** When it expires (SCHEDULED: `endsAt`; TRANSFERRED/RETURNING: `endsAt` + grace); null once over. */
  expiresAt: v.nullable(v.string()),
  /** The organization's address, where the keychain is picked up and returned. */
  pickupAddress: AddressSchema,
  pickups: v.array(PickupSchema),
  /**
   * For the caller: the pickup `POST /transfers/{id}/pickups` would record now (the recipient's PICKUP, a
   * member's RETURN), or null with `refusal` saying why not (`already_returned` / `cancelled` once over).
   */
  next: v.nullable(v.picklist(PICKUP_KINDS)),
  refusal: v.nullable(v.picklist(PICKUP_REFUSALS)),
  createdAt: v.string(),
  cancelledAt: v.nullable(v.string()),
  /** The last "chase" of this overdue transfer (a reminder sent now); a new one an hour after it at the earliest. */
  chasedAt: v.nullable(v.string()),
  /** The latest request for more time (pending, or the last answered), or null. */
  extension: v.nullable(TransferExtensionSchema),
})
export type Transfer = v.InferOutput<typeof TransferSchema>
export const TransferPageSchema = pageOf(TransferSchema)
export const TransferListSchema = listOf(TransferSchema)

/**
 * Quick filters of `GET /transfers`, in the organization's calendar: `today`, a window that opens or is due back
 * today (cancelled ones aside); `overdue`, a keychain picked up and not back a day after its to-date.
 */
export const TRANSFER_QUICK_FILTERS = ['today', 'overdue'] as const
export type TransferQuickFilter = (typeof TRANSFER_QUICK_FILTERS)[number]
/** What `GET /transfers` sorts by: the window's start (from-date) or its end (to-date), then the id. */
export const TRANSFER_SORTS = ['start', 'end'] as const
export type TransferSort = (typeof TRANSFER_SORTS)[number]
export const SORT_ORDERS = ['asc', 'desc'] as const
export type SortOrder = (typeof SORT_ORDERS)[number]

/**
 * `GET /transfers` (the selected organization's; a CONTACT sees only theirs), newest window first unless
 * `sort` (`start`, `end`) and `order` (`asc`, `desc`; `desc` by default) say otherwise. `status` filters on the
 * computed status; `expired` on the flag (`true` / `false`); `when` is a quick filter (`today`, `overdue`).
 * A cursor belongs to the order it was made in.
 */
export const TransferListQuerySchema = v.object({
  ...PageQuerySchema.entries,
  status: v.optional(TransferStatusSchema),
  expired: v.optional(v.picklist(['true', 'false'], 'expired must be true or false.')),
  when: v.optional(v.picklist(TRANSFER_QUICK_FILTERS, 'when must be today or overdue.')),
  sort: v.optional(v.picklist(TRANSFER_SORTS, 'sort must be start or end.')),
  order: v.optional(v.picklist(SORT_ORDERS, 'order must be asc or desc.')),
})

/**
 * `GET /keychains/{id}/transfers/overlaps`: the keychain's transfers that would refuse a new one from `fromDate`
 * to `toDate` (409 `transfer_overlap` on `POST`), by the same rule, so a form can say it before submitting.
 */
export const TransferOverlapQuerySchema = v.pipe(
  v.object({ fromDate: CalendarDateSchema, toDate: CalendarDateSchema }),
  v.forward(
    v.partialCheck(
      [['fromDate'], ['toDate']],
      (input) => input.toDate > input.fromDate,
      'The to-date must be after the from-date.',
    ),
    ['toDate'],
  ),
)

/** `GET /users/{id}/transfers`: the transfers addressed to a member of the organization, newest window first. */
export const MemberTransfersQuerySchema = PageQuerySchema

/** `GET /keychains/{id}/transfers`: the keychain's authorizations, past and current, newest window first. */
export const KeychainTransfersQuerySchema = PageQuerySchema

/**
 * `GET /transfers/requests`: transfers addressed to the caller in every organization they belong to, open ones
 * (SCHEDULED, TRANSFERRED, RETURNING) first, then the rest, newest window first.
 */
export const TransferRequestsQuerySchema = v.object({
  ...PageQuerySchema.entries,
  open: v.optional(v.picklist(['true', 'false'], 'open must be true or false.')),
})

/** `GET /stats/dashboard`. */
/** A keychain out that is due back today, or late, on the dashboard. */
const DashboardReturnSchema = v.object({
  transferId: v.string(),
  keychainId: v.string(),
  keychainName: v.string(),
  holder: PersonSchema,
  toDate: v.string(),
  chasedAt: v.nullable(v.string()),
})
export type DashboardReturn = v.InferOutput<typeof DashboardReturnSchema>

/** How many of each list the dashboard shows; the figures beside them count all and link to the full lists. */
export const DASHBOARD_RETURNS_SHOWN = 10

export const DashboardSchema = v.object({
  /** Null without a selected organization, or for a CONTACT (who sees only their requests). */
  organization: v.nullable(
    v.object({
      id: v.string(),
      keychains: v.number(),
      /** All transfers ever authorized, cancelled ones included. */
      transfers: v.number(),
      /** Memberships of every status, as `GET /users` lists them. */
      users: v.number(),
      active: v.object({ scheduled: v.number(), transferred: v.number(), returning: v.number() }),
      expired: v.object({ scheduled: v.number(), returning: v.number() }),
      /** Keychains due back today, and late ones (longest late first), `DASHBOARD_RETURNS_SHOWN` of each at most. */
      returns: v.object({
        dueToday: v.array(DashboardReturnSchema),
        overdue: v.array(DashboardReturnSchema),
      }),
    }),
  ),
  /** Open transfers addressed to the caller, in every organization. */
  requests: v.object({ open: v.number() }),
})
export type Dashboard = v.InferOutput<typeof DashboardSchema>
