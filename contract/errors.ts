import * as v from 'valibot'
import { PersonSchema } from './person.ts'

/** Machine-readable error codes answered by the API in `{ error: { code, message } }`. */
export const ErrorCode = {
  badRequest: 'bad_request',
  validation: 'validation_failed',
  unsupportedMediaType: 'unsupported_media_type',
  unauthenticated: 'unauthenticated',
  forbidden: 'forbidden',
  notFound: 'not_found',
  /** A known API path called with a method it does not answer (405, with `Allow`). */
  methodNotAllowed: 'method_not_allowed',
  conflict: 'conflict',
  /** The tag is on a key already (409): taken meanwhile, e.g. paired on another device while this one was offline. */
  tagTaken: 'tag_taken',
  memberNamesLocked: 'member_names_locked',
  /** A route of the selected organization was called while the user has none selected. */
  noOrganizationSelected: 'no_organization_selected',
  /** The Idempotency-Key was already used for a different request (422). */
  idempotencyKeyReused: 'idempotency_key_reused',
  originRejected: 'origin_rejected',
  rateLimited: 'rate_limited',
  signInFailed: 'sign_in_failed',
  /** A sign-in code asked for an address its organization signs in itself (409): continue with it instead. */
  ssoRequired: 'sso_required',
  /** A cart item's `unitAmountInCents` differs from the server's price (409; the body holds the right one). */
  priceMismatch: 'price_mismatch',
  /** An order action its status does not allow (409; the body lists the `allowed` next statuses). */
  invalidTransition: 'invalid_transition',
  /** Checkout of an empty cart (409). */
  cartEmpty: 'cart_empty',
  /** A payment provider's webhook whose signature does not verify (400). */
  invalidSignature: 'invalid_signature',
  /** Transfers need an active subscription (402). */
  subscriptionRequired: 'subscription_required',
  /** This calendar month's transfers are used up (402; the body holds `used`, `allowance`, `renewsAt`). */
  transferAllowanceExceeded: 'transfer_allowance_exceeded',
  /** Another active transfer of the keychain overlaps the window (409). */
  transferOverlap: 'transfer_overlap',
  /** A pickup the rules do not allow now (409; `reason` is one of `PICKUP_REFUSALS`). */
  pickupRefused: 'pickup_refused',
  /** A request for more time the rules do not allow (409; `reason` is one of `EXTENSION_REFUSALS`). */
  extensionRefused: 'extension_refused',
  /** A chase of a transfer that is not overdue (409). */
  notOverdue: 'not_overdue',
  /** A chase within the hour after the last one (429, `Retry-After`). */
  chasedRecently: 'chased_recently',
  /** A reply to a finder who left no e-mail address (409). */
  finderUnreachable: 'finder_unreachable',
  /** A report's replies are used up (409, `FOUND_REPORT_REPLIES_MAX`). */
  repliesExhausted: 'replies_exhausted',
  /** A receipt's photo over 300 KB or 1280 px on its longest edge (400; see `contract/receipts.ts`). */
  photoTooLarge: 'photo_too_large',
  /** A receipt's photo that is not a JPEG (400). */
  photoInvalid: 'photo_invalid',
  /** A keychain CSV that cannot be read as a whole: not CSV, no data rows, too many rows, unknown headers (400). */
  csvInvalid: 'csv_invalid',
  /** A keychain CSV import with errors in its rows (400; `issues` lists them by `line:column`). */
  importRowsInvalid: 'import_rows_invalid',
  /** A label reprint whose filter matches no tag (400). */
  labelSelectionEmpty: 'label_selection_empty',
  /** A label reprint of more than `LABEL_PRINT_MAX` tags (400): narrow the filter or print in parts. */
  labelSelectionTooLarge: 'label_selection_too_large',
  /** A bulk keychain action whose filter matches more than `BULK_KEYCHAINS_MAX` keychains (400). */
  bulkSelectionTooLarge: 'bulk_selection_too_large',
  /** A new webhook beyond `WEBHOOK_ENDPOINTS_MAX` for the organization (409): delete one first. */
  webhookLimitReached: 'webhook_limit_reached',
  /**
   * A stocktake's close while a device says it made scans the server has not had (409; `unsent` names each such
   * device and its person): that device sends them first.
   */
  stocktakeScansUnsent: 'stocktake_scans_unsent',
  /** A place where the tree does not allow it (409): under a board or cabinet, under itself, deeper than `PLACE_DEPTH_MAX`. */
  placeTreeRefused: 'place_tree_refused',
  /** A place or hook that cannot go yet (409): places under it, keychains whose home it holds, an open stocktake. */
  placeInUse: 'place_in_use',
  /** Hooks refused (409): only boards and cabinets have hooks, at most `HOOKS_PER_PLACE_MAX` each. */
  hooksRefused: 'hooks_refused',
  /** A hook scan whose value is not the label of one of the organization's hooks (400). */
  notAHookLabel: 'not_a_hook_label',
  /** A keychain someone holds (a custodian, or out on a transfer) cannot be put on a hook (409). */
  keychainHeld: 'keychain_held',
  /** A handover the server does not apply (409; `reason` is one of `HANDOVER_REFUSALS`, the body may hold `handover`). */
  handoverRefused: 'handover_refused',
  payloadTooLarge: 'payload_too_large',
  internal: 'internal_error',
  unavailable: 'service_unavailable',
} as const

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode]

export const ApiErrorSchema = v.object({
  error: v.object({
    code: v.string(),
    message: v.string(),
    issues: v.optional(v.array(v.object({ path: v.string(), message: v.string() }))),
    /** `invalid_transition`: the statuses the order may move to from its current one (may be empty). */
    allowed: v.optional(v.array(v.string())),
    /** `price_mismatch`: the server's unit price, to show instead of the stale one. */
    expectedUnitAmountInCents: v.optional(v.number()),
    /** `pickup_refused`, `handover_refused`: which rule refused it (`PICKUP_REFUSALS`, `HANDOVER_REFUSALS`). */
    reason: v.optional(v.string()),
    /** `transfer_allowance_exceeded`: transfers counted this month, the plan's allowance, when it renews. */
    used: v.optional(v.number()),
    allowance: v.optional(v.number()),
    renewsAt: v.optional(v.string()),
    /** `chased_recently`: when the next chase is allowed. */
    retryAt: v.optional(v.string()),
    /** `csv_invalid`: the header's unknown or repeated column, or the line the file stopped being CSV at. */
    column: v.optional(v.string()),
    line: v.optional(v.number()),
    /** `stocktake_scans_unsent`: the devices whose scans have not all arrived, with their person. */
    unsent: v.optional(
      v.array(
        v.object({
          deviceId: v.string(),
          person: v.nullable(PersonSchema),
          made: v.number(),
          received: v.number(),
        }),
      ),
    ),
  }),
})

export type ApiErrorBody = v.InferOutput<typeof ApiErrorSchema>
