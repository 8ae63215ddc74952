import * as v from 'valibot'

/** Machine-readable error codes answered by the API in `{ error: { code, message } }`. */
export const ErrorCode = {
  badRequest: 'bad_request',
  validation: 'validation_failed',
  unsupportedMediaType: 'unsupported_media_type',
  unauthenticated: 'unauthenticated',
  forbidden: 'forbidden',
  notFound: 'not_found',
  conflict: 'conflict',
  /** A route of the selected organization was called while the user has none selected. */
  noOrganizationSelected: 'no_organization_selected',
  /** The Idempotency-Key was already used for a different request (422). */
  idempotencyKeyReused: 'idempotency_key_reused',
  originRejected: 'origin_rejected',
  rateLimited: 'rate_limited',
  signInFailed: 'sign_in_failed',
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
  }),
})

export type ApiErrorBody = v.InferOutput<typeof ApiErrorSchema>
