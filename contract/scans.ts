import * as v from 'valibot'
import { PersonSchema } from './common.ts'
import { KeySchema } from './keychains.ts'
import { TagSchema } from './tags.ts'

/** A tag URL (`…/tags/<publicId>`), a bare public id, or a human code such as `AGC-00042` (any case). */
export const ScanRequestSchema = v.strictObject({
  value: v.pipe(v.string('Value is required.'), v.trim(), v.nonEmpty('Value is required.'), v.maxLength(512)),
})
export type ScanRequest = v.InferInput<typeof ScanRequestSchema>

/** Header carrying the client-made UUID of a field action; a replay with the same key answers the same. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key'

export const ScanResultSchema = v.variant('status', [
  v.object({
    status: v.literal('resolved'),
    scanId: v.string(),
    tag: TagSchema,
    key: v.nullable(KeySchema),
    keychain: v.nullable(v.object({ id: v.string(), name: v.string(), custodian: v.nullable(PersonSchema) })),
    /** What the caller may do with it now (permission strings, e.g. `update__keychain`). */
    actions: v.array(v.string()),
  }),
  /** The tag belongs to another organization: only its public landing applies. */
  v.object({ status: v.literal('foreign'), scanId: v.string(), publicId: v.string() }),
  v.object({ status: v.literal('unknown'), scanId: v.string(), value: v.string() }),
])
export type ScanResult = v.InferOutput<typeof ScanResultSchema>
