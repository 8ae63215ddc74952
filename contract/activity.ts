import * as v from 'valibot'

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
