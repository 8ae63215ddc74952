import * as v from 'valibot'

/**
 * Handover receipts (issue 18): at the first pickup the recipient accepts the keychain with a typed name or a
 * drawn signature, and may add a photo of the keys. The acceptance travels in the pickup's own request (the
 * outbox item), so it is queued, replayed and stored exactly once with it.
 */

/** A drawn signature is SVG path data (`M x y L x y …`, whole numbers) in a box of this size. */
export const SIGNATURE_BOX = { width: 600, height: 200 } as const
/** About 4,000 points: a long signature is a few hundred. */
const SIGNATURE_MAX_CHARS = 40_000
export const TYPED_NAME_MAX_CHARS = 120
/** A photo of the keys: a JPEG the device resized to this longest edge and under this size. */
export const PHOTO_MAX_EDGE = 1280
export const PHOTO_MAX_BYTES = 300 * 1024
export const PHOTO_DATA_URL_PREFIX = 'data:image/jpeg;base64,'

const SIGNATURE_PATH = /^M\d{1,3} \d{1,3}(?: [ML]\d{1,3} \d{1,3})*$/
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/

export const SignatureSchema = v.pipe(
  v.string('The signature must be text.'),
  v.maxLength(SIGNATURE_MAX_CHARS, 'The signature is too long.'),
  v.regex(SIGNATURE_PATH, 'The signature must be SVG path data (M and L with whole numbers).'),
)

const TypedNameSchema = v.pipe(
  v.string('The typed name must be text.'),
  v.trim(),
  v.minLength(1, 'Type your name.'),
  v.maxLength(TYPED_NAME_MAX_CHARS, 'The typed name is too long.'),
  v.regex(/^[^\p{Cc}]*$/u, 'The typed name must not contain control characters.'),
)

/**
 * A JPEG as a data URL. The schema checks its form only (the request's 1 MiB limit bounds its length); the server
 * decodes it and refuses one over `PHOTO_MAX_BYTES` or `PHOTO_MAX_EDGE` with 400 `photo_too_large`, and
 * one that is not a JPEG with 400 `photo_invalid` (`ErrorCode`).
 */
const PhotoSchema = v.pipe(
  v.string('The photo must be a JPEG data URL.'),
  v.startsWith(PHOTO_DATA_URL_PREFIX, 'The photo must be a JPEG data URL.'),
  v.check(
    (value) => BASE64.test(value.slice(PHOTO_DATA_URL_PREFIX.length)),
    'The photo must be a JPEG data URL.',
  ),
)

/** The recipient's acceptance: a typed name, a drawn signature, or both; a photo if they like. */
const AcceptanceSchema = v.pipe(
  v.strictObject({
    typedName: v.optional(TypedNameSchema),
    signature: v.optional(SignatureSchema),
    photo: v.optional(PhotoSchema),
  }),
  v.check(
    (input) => input.typedName !== undefined || input.signature !== undefined,
    'Accept with a typed name or a drawn signature.',
  ),
)
export type Acceptance = v.InferInput<typeof AcceptanceSchema>

/**
 * `POST /transfers/{id}/pickups`: an empty body, or the recipient's acceptance (stored only with a first pickup;
 * a return ignores it).
 */
export const PickupBodySchema = v.optional(v.strictObject({ acceptance: v.optional(AcceptanceSchema) }))

const ReceiptPersonSchema = v.object({ id: v.nullable(v.string()), name: v.string(), email: v.string() })

/** `GET /transfers/{id}/receipt`: what was handed over, to whom, by whom, when, and how it was accepted. */
export const ReceiptSchema = v.object({
  id: v.string(),
  transferId: v.string(),
  organization: v.object({ id: v.string(), name: v.string() }),
  keychain: v.object({ id: v.string(), name: v.string() }),
  /** The keys on the keychain at the pickup. */
  keys: v.array(v.object({ name: v.string(), type: v.string() })),
  fromDate: v.string(),
  toDate: v.string(),
  recipient: ReceiptPersonSchema,
  /** Who handed it over: the custodian before the pickup, else who authorized the transfer. */
  handedOverBy: v.nullable(ReceiptPersonSchema),
  /** When it was accepted (the device's time of a queued pickup, as the pickup was judged), and recorded. */
  acceptedAt: v.string(),
  clientTime: v.nullable(v.string()),
  serverTime: v.string(),
  fromQueue: v.boolean(),
  typedName: v.nullable(v.string()),
  signature: v.nullable(v.string()),
  /** The photo as a JPEG data URL, or null. */
  photo: v.nullable(v.string()),
  /** The recipient's language: the PDF's. */
  locale: v.string(),
})
export type Receipt = v.InferOutput<typeof ReceiptSchema>
