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
