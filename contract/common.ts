import * as v from 'valibot'

export const IdSchema = v.pipe(v.string(), v.uuid('Malformed id.'))
export const IdParamsSchema = v.object({ id: IdSchema })

export const PAGE_SIZE_DEFAULT = 25
export const PAGE_SIZE_MAX = 100

/** `?cursor=…&limit=…` of every paginated list; the cursor is opaque to the client. */
export const PageQuerySchema = v.object({
  cursor: v.optional(v.pipe(v.string(), v.maxLength(512))),
  limit: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+$/, 'limit must be a whole number.'),
      // What the API document states: the bounds below, as a pattern (the parameter travels as text).
      v.metadata({
        pattern: '^(?:100|[1-9][0-9]?)$',
        description: `A whole number from 1 to ${PAGE_SIZE_MAX}.`,
      }),
      v.transform(Number),
      v.minValue(1, 'limit must be at least 1.'),
      v.maxValue(PAGE_SIZE_MAX, `limit must be at most ${PAGE_SIZE_MAX}.`),
    ),
  ),
})

/** A list answer: `{ data }`, plus `nextCursor` when paginated (null on the last page). */
export const listOf = <T extends v.GenericSchema>(item: T) => v.object({ data: v.array(item) })
export const pageOf = <T extends v.GenericSchema>(item: T) =>
  v.object({ data: v.array(item), nextCursor: v.nullable(v.string()) })

/** Line breaks, tabs and other control characters (C0, DEL, C1): no name or address line holds one. */
const CONTROL_CHARACTER = /\p{Cc}/u
const NO_CONTROL_CHARACTERS = 'Line breaks, tabs and other control characters are not allowed here.'
export const withoutControlCharacters = v.check(
  (text: string) => !CONTROL_CHARACTER.test(text) && text.isWellFormed(),
  NO_CONTROL_CHARACTERS,
)

export const requiredText = (max: number, required: string, tooLong: string) =>
  v.pipe(
    v.string(required),
    v.trim(),
    v.nonEmpty(required),
    v.maxLength(max, tooLong),
    withoutControlCharacters,
  )

export const optionalText = (max: number, tooLong: string) =>
  v.optional(v.pipe(v.string(), v.trim(), v.maxLength(max, tooLong), withoutControlCharacters), '')
