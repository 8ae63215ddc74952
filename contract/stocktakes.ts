import * as v from 'valibot'
import { IdSchema, PageQuerySchema, pageOf } from './common.ts'
import { PersonSchema } from './person.ts'
import { PlaceKindSchema } from './places.ts'
import { HookRefSchema } from './whereabouts.ts'

/**
 * A stocktake: what should hang in a scope (a board, a place with everything under it, or the whole
 * organization) checked against what people scan there. The server takes the expected list when it starts
 * (keychains whose home is in the scope and that nobody holds) and decides every outcome; devices only send
 * scans, each once.
 */
export const STOCKTAKE_STATUSES = ['OPEN', 'CLOSED'] as const
export type StocktakeStatus = (typeof STOCKTAKE_STATUSES)[number]

/** An expected keychain's state: not yet seen, seen on its home hook (or in scope with no hook), on another hook, not seen by the close. */
export const STOCKTAKE_ITEM_STATES = ['PENDING', 'FOUND', 'MISPLACED', 'MISSING'] as const
export type StocktakeItemState = (typeof STOCKTAKE_ITEM_STATES)[number]

/**
 * What one scan did: a hook label (the hook the next tags are on), an expected keychain found or found on
 * another hook, one already counted (counts once), a keychain of the organization not expected here, a value
 * unknown to the organization.
 */
export const STOCKTAKE_SCAN_OUTCOMES = [
  'HOOK',
  'FOUND',
  'MISPLACED',
  'REPEATED',
  'UNEXPECTED',
  'UNKNOWN',
] as const
export type StocktakeScanOutcome = (typeof STOCKTAKE_SCAN_OUTCOMES)[number]

const StocktakeCountsSchema = v.object({
  expected: v.number(),
  found: v.number(),
  misplaced: v.number(),
  /** Not seen yet while open; not seen by the close once closed. */
  missing: v.number(),
  unexpected: v.number(),
})
export type StocktakeCounts = v.InferOutput<typeof StocktakeCountsSchema>

const ScopeSchema = v.nullable(v.object({ id: v.string(), name: v.string(), kind: PlaceKindSchema }))

export const StocktakeSummarySchema = v.object({
  id: v.string(),
  status: v.picklist(STOCKTAKE_STATUSES),
  /** The place it covers with everything under it; null for the whole organization. */
  scope: ScopeSchema,
  startedAt: v.string(),
  startedBy: v.nullable(PersonSchema),
  closedAt: v.nullable(v.string()),
  closedBy: v.nullable(PersonSchema),
  counts: StocktakeCountsSchema,
})
export type StocktakeSummary = v.InferOutput<typeof StocktakeSummarySchema>
export const StocktakePageSchema = pageOf(StocktakeSummarySchema)
export const StocktakeListQuerySchema = v.object({
  ...PageQuerySchema.entries,
  status: v.optional(v.picklist(STOCKTAKE_STATUSES, 'Unknown status.')),
})

const KeychainRefSchema = v.object({ id: v.string(), name: v.string(), tagCodes: v.array(v.string()) })

const StocktakeItemSchema = v.object({
  keychain: KeychainRefSchema,
  state: v.picklist(STOCKTAKE_ITEM_STATES),
  expectedHook: v.nullable(HookRefSchema),
  foundHook: v.nullable(HookRefSchema),
  foundAt: v.nullable(v.string()),
  foundBy: v.nullable(PersonSchema),
})
export type StocktakeItem = v.InferOutput<typeof StocktakeItemSchema>

const StocktakeUnexpectedSchema = v.object({
  /** The keychain, when the value named one of the organization's; null for a value unknown to it. */
  keychain: v.nullable(KeychainRefSchema),
  value: v.string(),
  hook: v.nullable(HookRefSchema),
  scannedAt: v.string(),
  scannedBy: v.nullable(PersonSchema),
})

/** Per board (or cabinet) of the scope: the tally, for the screen's sections. */
const StocktakeBoardSchema = v.object({
  place: v.object({ id: v.string(), name: v.string() }),
  counts: StocktakeCountsSchema,
})

/** A device that has scanned for it, and whether the server has every scan it says it made. */
export const StocktakeDeviceSchema = v.object({
  deviceId: v.string(),
  person: v.nullable(PersonSchema),
  made: v.number(),
  received: v.number(),
})

/** `GET /stocktakes/{id}`: the tally, per board, every expected keychain's state, the unexpected scans. */
export const StocktakeDetailSchema = v.object({
  ...StocktakeSummarySchema.entries,
  boards: v.array(StocktakeBoardSchema),
  items: v.array(StocktakeItemSchema),
  unexpected: v.array(StocktakeUnexpectedSchema),
  devices: v.array(StocktakeDeviceSchema),
  /** The scans received so far: a screen polls `?since=` this to learn of other devices' scans. */
  scanCount: v.number(),
})
export type StocktakeDetail = v.InferOutput<typeof StocktakeDetailSchema>

/** `POST /stocktakes`: a board, a place with what is under it, or the whole organization (no place). */
export const StocktakeStartSchema = v.strictObject({ placeId: v.nullable(IdSchema) })

/**
 * `POST /stocktakes/{id}/scans`, from the outbox with the scan's own id as Idempotency-Key: a hook label or a
 * tag, with the hook the device last scanned (the tag hangs there) and the device's count of scans it has made
 * for this stocktake (the server knows what is still on its way).
 */
export const StocktakeScanSchema = v.strictObject({
  value: v.pipe(
    v.string(),
    v.trim(),
    v.minLength(1, 'Scan a label or a tag.'),
    v.maxLength(512, 'Too long.'),
  ),
  hookId: v.optional(v.nullable(IdSchema)),
  deviceId: v.pipe(v.string(), v.uuid('The device id must be a UUID.')),
  /** This scan's rank among the device's scans of this stocktake, from 1. */
  deviceSeq: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1_000_000)),
})
export type StocktakeScan = v.InferInput<typeof StocktakeScanSchema>
export const StocktakeScanResultSchema = v.object({
  outcome: v.picklist(STOCKTAKE_SCAN_OUTCOMES),
  keychain: v.nullable(KeychainRefSchema),
  hook: v.nullable(HookRefSchema),
  counts: StocktakeCountsSchema,
  /** Received after the stocktake closed: kept, shown in its report, changes nothing. */
  late: v.boolean(),
})
export type StocktakeScanResult = v.InferOutput<typeof StocktakeScanResultSchema>

/** `PUT /stocktakes/{id}/devices/{deviceId}`: how many scans this device has made for it (never decreases). */
export const StocktakeDeviceReportSchema = v.strictObject({
  made: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(1_000_000)),
})
export const StocktakeDeviceParamsSchema = v.object({
  id: IdSchema,
  deviceId: v.pipe(v.string(), v.uuid('The device id must be a UUID.')),
})

/** `GET /stocktakes/due`: places whose recurring stocktake is due or overdue (dashboard). */
const StocktakeDueSchema = v.object({
  place: v.object({ id: v.string(), name: v.string(), kind: PlaceKindSchema }),
  dueOn: v.string(),
  overdue: v.boolean(),
})
export type StocktakeDue = v.InferOutput<typeof StocktakeDueSchema>
export const StocktakesDueSchema = v.object({ data: v.array(StocktakeDueSchema) })
