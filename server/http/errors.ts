import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { ApiErrorBody } from '../../contract/errors.ts'
import { ErrorCode } from '../../contract/errors.ts'
import type { Handover } from '../../contract/handover.ts'
import type { Person } from '../../contract/person.ts'
import type { AppEnv } from './env.ts'

export type Issue = { path: string; message: string }

/** Extra machine-readable fields of some errors, answered beside `code` and `message`. */
export type ErrorFields = {
  allowed?: string[]
  expectedUnitAmountInCents?: number
  /** `pickup_refused`, `handover_refused`: which rule refused it. */
  reason?: string
  /** `handover_refused` of a handover the server keeps (refused for a reason of its records). */
  handover?: Handover
  /** `transfer_allowance_exceeded`: transfers counted this month, the allowance, when it renews. */
  used?: number
  allowance?: number
  renewsAt?: string
  /** `chased_recently`: when the next chase is allowed. */
  retryAt?: string
  /** `csv_invalid`: the header's unknown or repeated column, or the line the file stopped being CSV at. */
  column?: string
  line?: number
  /** `stocktake_scans_unsent`: the devices whose scans have not all arrived. */
  unsent?: Array<{ deviceId: string; person: Person | null; made: number; received: number }>
}

/** Thrown anywhere under a request; the error handler turns it into `{ error: { code, message } }`. */
export class ApiError extends Error {
  readonly status: ContentfulStatusCode
  readonly code: ErrorCode
  readonly issues: Issue[] | undefined
  readonly headers: Record<string, string>
  readonly fields: ErrorFields

  constructor(
    status: ContentfulStatusCode,
    code: ErrorCode,
    message: string,
    extra: { issues?: Issue[]; headers?: Record<string, string>; fields?: ErrorFields } = {},
  ) {
    super(message)
    this.status = status
    this.code = code
    this.issues = extra.issues
    this.headers = extra.headers ?? {}
    this.fields = extra.fields ?? {}
  }
}

export const notFound = (what = 'Not found.') => new ApiError(404, ErrorCode.notFound, what)
export const unauthenticated = () => new ApiError(401, ErrorCode.unauthenticated, 'Sign in to continue.')
export const forbidden = () => new ApiError(403, ErrorCode.forbidden, 'You are not allowed to do this.')

function errorBody(
  code: ErrorCode,
  message: string,
  issues?: Issue[],
  fields: ErrorFields = {},
): ApiErrorBody {
  return { error: { code, message, ...(issues ? { issues } : {}), ...fields } }
}

export function errorResponse(c: Context, error: ApiError): Response {
  for (const [name, value] of Object.entries(error.headers)) c.header(name, value)
  return c.json(errorBody(error.code, error.message, error.issues, error.fields), error.status)
}

function fromHttpException(status: ContentfulStatusCode): ApiError {
  if (status === 413) return new ApiError(413, ErrorCode.payloadTooLarge, 'The request body is too large.')
  if (status === 401) return unauthenticated()
  if (status >= 500) return new ApiError(500, ErrorCode.internal, 'An error occurred.')
  return new ApiError(status, ErrorCode.badRequest, 'The request could not be understood.')
}

/** Never answers a stack trace or an internal message; unexpected errors are logged with their stack. */
/** Whether reading the request failed because the client hung up (an aborted upload), not because of us. */
function clientWentAway(error: Error & { code?: string }, c: Context<AppEnv>): boolean {
  return (
    c.req.raw.signal.aborted ||
    error.code === 'ECONNRESET' ||
    error.code === 'ERR_STREAM_PREMATURE_CLOSE' ||
    error.message === 'aborted'
  )
}

export function handleError(error: Error, c: Context<AppEnv>): Response {
  if (error instanceof ApiError) return errorResponse(c, error)
  if (error instanceof HTTPException) {
    if (error.status >= 500) c.var.log?.error({ err: error }, 'http exception')
    return errorResponse(c, fromHttpException(error.status as ContentfulStatusCode))
  }
  if (clientWentAway(error, c)) {
    // Nobody reads this answer: the client closed the connection while sending its body.
    c.var.log?.info({ reason: error.message }, 'client closed the connection mid-request')
    return errorResponse(c, new ApiError(400, ErrorCode.badRequest, 'The request did not arrive whole.'))
  }
  c.var.log?.error({ err: error }, 'unhandled error')
  return errorResponse(c, new ApiError(500, ErrorCode.internal, 'An error occurred.'))
}
