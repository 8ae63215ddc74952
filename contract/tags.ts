import * as v from 'valibot'
import { IdSchema, PageQuerySchema, pageOf } from './common.ts'
import { PersonSchema } from './person.ts'

/** `#rrggbb`, lower case. */
export const ColorSchema = v.pipe(
  v.string(),
  v.trim(),
  v.toLowerCase(),
  v.regex(/^#[0-9a-f]{6}$/, 'Colour must look like #1a2b3c.'),
)

/** Human code: the order line's alpha code and a running number, e.g. `AGC-00042`. */
export const TAG_CODE_PATTERN = /^[A-Z]{2,4}-\d{5}$/
/** Public id: 20 base32 characters (100 bits), in the QR URL `<PUBLIC_URL>/tags/<publicId>`. */
export const TAG_PUBLIC_ID_PATTERN = /^[a-z2-7]{20}$/

const TagPublicIdSchema = v.pipe(v.string(), v.regex(TAG_PUBLIC_ID_PATTERN, 'Malformed tag id.'))

export const TagSchema = v.object({
  id: v.string(),
  publicId: v.string(),
  code: v.string(),
  name: v.string(),
  foregroundColor: v.string(),
  backgroundColor: v.string(),
  /** What the QR code encodes. */
  url: v.string(),
  key: v.nullable(
    v.object({ id: v.string(), name: v.string(), keychainId: v.string(), keychainName: v.string() }),
  ),
  createdAt: v.string(),
  /** Present when the tag was declared lost (ISO time): it resolves to no keychain until undone or replaced. */
  lostAt: v.optional(v.string()),
})
export type Tag = v.InferOutput<typeof TagSchema>
export const TagPageSchema = pageOf(TagSchema)

/** The tags list's filter by use: free tags (on no key yet) or used ones. */
const TAG_USES = ['free', 'used'] as const
export type TagUse = (typeof TAG_USES)[number]

export const TagListQuerySchema = v.object({
  ...PageQuerySchema.entries,
  /** `true`: only tags not linked to a key yet (to pick one for a TAG key). */
  unused: v.optional(v.picklist(['true', 'false'])),
  /** `free`: not on a key (as `unused=true`); `used`: on a key. */
  use: v.optional(v.picklist(TAG_USES, 'use must be free or used.')),
  q: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100))),
})

export const TagPublicParamsSchema = v.object({ publicId: TagPublicIdSchema })

/**
 * `GET /tags/{publicId}`, open to anyone. A member of the owning organization gets the tag, its key, keychain and
 * custodian; anyone else only the organization's name (never what the keys open, nor an address).
 */
export const TagLandingSchema = v.variant('view', [
  v.object({
    view: v.literal('member'),
    tag: TagSchema,
    keychain: v.nullable(v.object({ id: v.string(), name: v.string(), custodian: v.nullable(PersonSchema) })),
    organization: v.object({ id: v.string(), name: v.string() }),
    permissions: v.array(v.string()),
  }),
  v.object({
    view: v.literal('found'),
    code: v.string(),
    organization: v.object({ name: v.string() }),
  }),
])
export type TagLanding = v.InferOutput<typeof TagLandingSchema>

/** `POST /tags/{publicId}/found-reports`: a finder leaves a way to reach them; the organization's admins get a mail. */
export const FoundReportSchema = v.strictObject({
  message: v.pipe(
    v.string(),
    v.trim(),
    v.nonEmpty('Message is required.'),
    v.maxLength(2000, 'Message is too long.'),
  ),
  contact: v.pipe(
    v.string(),
    v.trim(),
    v.nonEmpty('Contact is required.'),
    v.maxLength(200, 'Contact is too long.'),
  ),
})
export type FoundReport = v.InferInput<typeof FoundReportSchema>

export const TagIdParamsSchema = v.object({ id: IdSchema })

/** The answer of `POST /tags/{publicId}/found-reports` (202): the organization's admins were told. */
export const FoundReportAcceptedSchema = v.object({ status: v.literal('sent') })

/** `PUT` / `DELETE /tags/{id}/lost`: the tag, declared lost or found again. */
export const TagLostSchema = v.object({
  tag: TagSchema,
  /** Who declared it lost (null once undone, or when that person's account is gone). */
  lostBy: v.nullable(PersonSchema),
})
export type TagLost = v.InferOutput<typeof TagLostSchema>

/** `POST /tags/{id}/replacements` (201): the reprint of the tag's code is in the caller's cart. */
export const TagReplacementSchema = v.object({ cartItemId: v.string() })
