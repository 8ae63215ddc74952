import * as v from 'valibot'
import { IdSchema, requiredText } from './common.ts'
import { LABEL_FORMAT_IDS } from './label-layout.ts'
import { PersonSchema } from './person.ts'
import { HookRefSchema, KEYCHAIN_WHEREABOUTS } from './whereabouts.ts'

/**
 * Where keychains live when nobody holds them: a tree of places (a site, its rooms, the boards and cabinets in
 * them) and, on a board or cabinet, numbered hooks. Every board, cabinet and hook has a QR label of its own.
 */
export const PLACE_KINDS = ['SITE', 'ROOM', 'BOARD', 'CABINET'] as const
export type PlaceKind = (typeof PLACE_KINDS)[number]
export const PlaceKindSchema = v.picklist(PLACE_KINDS, 'Kind must be SITE, ROOM, BOARD or CABINET.')

/** Kinds that carry hooks (and a label of their own). */
export const HOOK_HOLDERS: ReadonlySet<PlaceKind> = new Set(['BOARD', 'CABINET'])

/**
 * The deepest a place may be: a top-level place is at depth 0, a place under it at 1… down to `PLACE_DEPTH_MAX`
 * (a board in a cupboard in a room in a building… and no deeper).
 */
export const PLACE_DEPTH_MAX = 6
export const PLACE_NAME_MAX = 80
/** Hooks one request may create, and one board may hold. */
export const HOOK_RANGE_MAX = 500
export const HOOKS_PER_PLACE_MAX = 2000
const HOOK_CODE_MAX = 16

/** Recurring stocktakes of a place, run through the job queue. */
export const STOCKTAKE_INTERVALS = ['MONTHLY', 'QUARTERLY'] as const
export type StocktakeInterval = (typeof STOCKTAKE_INTERVALS)[number]
const StocktakeIntervalSchema = v.picklist(STOCKTAKE_INTERVALS, 'Interval must be MONTHLY or QUARTERLY.')

const PlaceNameSchema = requiredText(PLACE_NAME_MAX, 'Name is required.', 'Name is too long.')

/** A hook's code as printed: letters, digits and dashes (`A-01`, `12`, `B-3-07`), upper-cased by the server. */
export const HookCodeSchema = v.pipe(
  v.string(),
  v.trim(),
  v.toUpperCase(),
  v.minLength(1, 'Code is required.'),
  v.maxLength(HOOK_CODE_MAX, 'Code is too long.'),
  v.regex(/^[A-Z0-9]+(-[A-Z0-9]+)*$/, 'A hook code holds letters, digits and single dashes.'),
)

const HookSchema = v.object({
  id: v.string(),
  placeId: v.string(),
  code: v.string(),
  /** The value its QR label encodes. */
  publicId: v.string(),
  /** The keychains whose home it is (normally one). */
  homeOf: v.array(v.object({ id: v.string(), name: v.string() })),
})
export type Hook = v.InferOutput<typeof HookSchema>

const PlaceSchema = v.object({
  id: v.string(),
  parentId: v.nullable(v.string()),
  kind: PlaceKindSchema,
  name: v.string(),
  depth: v.number(),
  /** The value its QR label encodes (boards and cabinets; null for sites and rooms). */
  publicId: v.nullable(v.string()),
  hookCount: v.number(),
  /** Keychains whose home is one of its hooks, or a hook of a place under it. */
  homeCount: v.number(),
  stocktakeEvery: v.nullable(StocktakeIntervalSchema),
  /** The calendar day (organization's time zone) the next recurring stocktake is due, when it has one. */
  stocktakeDueOn: v.nullable(v.string()),
  lastStocktake: v.nullable(
    v.object({
      id: v.string(),
      closedAt: v.string(),
      found: v.number(),
      missing: v.number(),
      misplaced: v.number(),
      unexpected: v.number(),
    }),
  ),
})
export type Place = v.InferOutput<typeof PlaceSchema>

/** `GET /places`: the organization's whole tree, flat, parents before children, siblings by name. */
export const PlaceTreeSchema = v.object({ data: v.array(PlaceSchema) })

/**
 * `GET /places/{id}`: a place, the path to it (its ancestors from the top-level place down to its parent; empty for
 * a top-level place), and its hooks in order.
 */
export const PlaceDetailSchema = v.object({
  ...PlaceSchema.entries,
  path: v.array(v.object({ id: v.string(), name: v.string(), kind: PlaceKindSchema })),
  hooks: v.array(HookSchema),
})
export type PlaceDetail = v.InferOutput<typeof PlaceDetailSchema>

export const PlaceCreateSchema = v.strictObject({
  name: PlaceNameSchema,
  kind: PlaceKindSchema,
  parentId: v.optional(v.nullable(IdSchema)),
})
export type PlaceCreate = v.InferInput<typeof PlaceCreateSchema>

export const PlaceUpdateSchema = v.pipe(
  v.strictObject({
    name: v.optional(PlaceNameSchema),
    /** Move it under another place (null: make it a top-level place). */
    parentId: v.optional(v.nullable(IdSchema)),
    stocktakeEvery: v.optional(v.nullable(StocktakeIntervalSchema)),
  }),
  v.check((input) => Object.keys(input).length > 0, 'Nothing to change.'),
)
export type PlaceUpdate = v.InferInput<typeof PlaceUpdateSchema>

/**
 * `POST /places/{id}/hooks`: hooks numbered in a range, `prefix` then the number padded to `width` digits
 * (prefix `A-`, 1 to 60, width 2: A-01 … A-60). Codes a board already has are skipped, never duplicated.
 */
export const HookRangeSchema = v.pipe(
  v.strictObject({
    prefix: v.pipe(
      v.string(),
      v.trim(),
      v.toUpperCase(),
      v.maxLength(8, 'Prefix is too long.'),
      v.regex(/^([A-Z0-9]+-?)?$/, 'A prefix holds letters and digits, and may end with a dash.'),
    ),
    from: v.pipe(v.number(), v.integer('From must be a whole number.'), v.minValue(0), v.maxValue(9999)),
    to: v.pipe(v.number(), v.integer('To must be a whole number.'), v.minValue(0), v.maxValue(9999)),
    width: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(4)), 2),
  }),
  v.check((input) => input.to >= input.from, 'The range ends before it starts.'),
  v.check((input) => input.to - input.from < HOOK_RANGE_MAX, `At most ${HOOK_RANGE_MAX} hooks at once.`),
)
export type HookRange = v.InferInput<typeof HookRangeSchema>
export const HookRangeResultSchema = v.object({
  created: v.number(),
  skipped: v.number(),
  /** The hooks made by this request, in order (not those skipped). */
  hooks: v.array(HookSchema),
})

export const HookParamsSchema = v.object({ id: IdSchema, hookId: IdSchema })

/** `PUT /keychains/{id}/home`: the keychain's home hook, or none. */
export const KeychainHomeSchema = v.strictObject({ hookId: v.nullable(IdSchema) })

export const KeychainLocationSchema = v.object({
  whereabouts: v.picklist(KEYCHAIN_WHEREABOUTS),
  home: v.nullable(HookRefSchema),
  /** The hook it was last put on or seen on (a return to hook, a stocktake), when not held since. */
  seenOn: v.nullable(HookRefSchema),
  seenAt: v.nullable(v.string()),
  seenBy: v.nullable(PersonSchema),
})
export type KeychainLocation = v.InferOutput<typeof KeychainLocationSchema>

/**
 * `POST /keychains/{id}/hook-scans`: after a return, the hook label the keychain was put on (scanned or typed).
 * Sent through the outbox with an Idempotency-Key; `makeHome` (managers) makes that hook its new home.
 */
export const HookScanSchema = v.strictObject({
  value: v.pipe(v.string(), v.trim(), v.minLength(1, 'Scan a hook label.'), v.maxLength(512, 'Too long.')),
  makeHome: v.optional(v.boolean(), false),
})
export const HookScanResultSchema = v.object({
  outcome: v.picklist(['HOME', 'MISPLACED', 'NEW_HOME']),
  location: KeychainLocationSchema,
})
export type HookScanResult = v.InferOutput<typeof HookScanResultSchema>

/** `POST /places/{id}/labels` and `…/labels/pdf`: the labels of a board's hooks (all, or those chosen) and its own. */
export const HookLabelPrintSchema = v.strictObject({
  format: v.picklist(LABEL_FORMAT_IDS, `Unknown label format: choose one of ${LABEL_FORMAT_IDS.join(', ')}.`),
  hookIds: v.optional(v.pipe(v.array(IdSchema), v.maxLength(HOOKS_PER_PLACE_MAX))),
  /** Add the board's (or cabinet's) own label first (default yes). */
  withPlace: v.optional(v.boolean(), true),
})
export type HookLabelPrint = v.InferInput<typeof HookLabelPrintSchema>

/** A board's, cabinet's or hook's public id: 16 lowercase base32 characters (80 random bits). */
export const LOCATION_PUBLIC_ID_PATTERN = /^[a-z2-7]{16}$/
const LOCATION_PATH = /^\/(h|p)\/([A-Za-z2-7]{16})\/?$/

/** What a hook's QR label encodes: short, so that it stays legible on a 12 mm label. */
export const hookLabelUrl = (publicUrl: string, publicId: string) =>
  `${publicUrl.replace(/\/+$/, '')}/h/${publicId}`
/** What a board's or cabinet's QR label encodes. */
export const placeLabelUrl = (publicUrl: string, publicId: string) =>
  `${publicUrl.replace(/\/+$/, '')}/p/${publicId}`

export type LocationLabel = { kind: 'hook' | 'place'; publicId: string }

/**
 * The hook or place a scanned label names (any host, as tag URLs are read), or typed as `h:<id>` / `p:<id>`;
 * null for anything else (a tag, a typo).
 */
export function parseLocationLabel(raw: string): LocationLabel | null {
  const value = raw.trim()
  let kind: string | undefined
  let publicId: string | undefined
  if (/^https?:\/\//i.test(value)) {
    try {
      // Stryker disable next-line ArrayDeclaration: any array without a second and third item names nothing either
      ;[, kind, publicId] = LOCATION_PATH.exec(new URL(value).pathname) ?? []
    } catch /* Stryker disable next-line BlockStatement: kind then stays undefined and the check below answers null */ {
      return null
    }
  } else {
    // Stryker disable next-line ArrayDeclaration: any array without a second and third item names nothing either
    ;[, kind, publicId] = /^(h|p):([A-Za-z2-7]{16})$/i.exec(value) ?? []
  }
  // Stryker disable next-line LogicalOperator: both groups are required by both patterns, so both are set or neither
  if (!kind || !publicId) return null
  return { kind: kind.toLowerCase() === 'h' ? 'hook' : 'place', publicId: publicId.toLowerCase() }
}
