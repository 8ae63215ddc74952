import type { MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { cors } from 'hono/cors'
import { ErrorCode } from '../../contract/errors.ts'
import { type Config, publicOrigin } from '../config.ts'
import { bearerTokenOf } from './bearer.ts'
import { ApiError, errorResponse } from './errors.ts'

export const MAX_BODY_BYTES = 1024 * 1024
/** The keychain CSV import's routes (the file travels in the JSON body): 5 MiB. */
export const IMPORT_MAX_BODY_BYTES = 5 * 1024 * 1024
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

function isStateChanging(method: string): boolean {
  return STATE_CHANGING.has(method.toUpperCase())
}

const originRejected = () => new ApiError(403, ErrorCode.originRejected, 'The request origin is not allowed.')

/**
 * CSRF defence: a state-changing request must carry a trusted Origin (PUBLIC_URL's or one in CORS_ORIGINS),
 * and `Sec-Fetch-Site: cross-site` is refused unless its Origin was allow-listed in CORS_ORIGINS on purpose.
 * `exempt` names the paths called by other servers (the signed Stripe webhook) rather than browsers. Requests
 * with an `Authorization: Bearer` API token pass: they carry no ambient credential.
 */
export function originCheck(
  config: Pick<Config, 'publicUrl' | 'corsOrigins'>,
  exempt: (path: string) => boolean = () => false,
): MiddlewareHandler {
  const own = publicOrigin(config)
  const allowed = new Set(config.corsOrigins)
  return async (c, next) => {
    // A bearer request is authenticated by its token alone (the session middleware never reads its cookies):
    // a cross-site page cannot make a browser add that header without a CORS preflight, so no Origin is asked.
    if (isStateChanging(c.req.method) && !exempt(c.req.path) && bearerTokenOf(c) === undefined) {
      const origin = c.req.header('origin')
      if (!origin || (origin !== own && !allowed.has(origin))) throw originRejected()
      if (c.req.header('sec-fetch-site') === 'cross-site' && !allowed.has(origin)) throw originRejected()
    }
    await next()
  }
}

/** Credentialed CORS for the allow-list only; never `*`. */
export function corsForAllowList(config: Pick<Config, 'corsOrigins'>): MiddlewareHandler {
  const allowed = new Set(config.corsOrigins)
  return cors({
    origin: (origin) => (allowed.has(origin) ? origin : null),
    credentials: true,
    allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowHeaders: [
      'Authorization',
      'Content-Type',
      'Idempotency-Key',
      'X-Client-Time',
      'X-From-Queue',
      'X-Request-Id',
    ],
    exposeHeaders: ['Retry-After', 'X-Request-Id', 'Idempotent-Replayed'],
    maxAge: 600,
  })
}

/**
 * JSON endpoints refuse form content types (a cross-site form can post those without a preflight). A
 * state-changing request either has no body or a JSON one. `exempt` names the paths that take another body
 * (a signed webhook's raw body, the sandbox checkout's form posts).
 */
export function jsonOnly(exempt: (path: string) => boolean = () => false): MiddlewareHandler {
  return async (c, next) => {
    if (isStateChanging(c.req.method) && !exempt(c.req.path)) {
      const type = c.req.header('content-type')
      const length = c.req.header('content-length')
      const hasBody =
        (length !== undefined && length !== '0') || c.req.header('transfer-encoding') !== undefined
      const isJson = type !== undefined && /^application\/json\s*(;|$)/i.test(type)
      if ((type !== undefined && !isJson) || (hasBody && !isJson)) {
        throw new ApiError(415, ErrorCode.unsupportedMediaType, 'Send the body as application/json.')
      }
    }
    await next()
  }
}

/**
 * GET and HEAD carry no body (a fetch Request cannot have one): they skip the check, which would otherwise
 * ask for `c.req.raw.body` and so make the server build a full Request for every read. `larger` names the paths
 * allowed `IMPORT_MAX_BODY_BYTES` (the keychain CSV import).
 */
export function limitBody(larger: (path: string) => boolean = () => false): MiddlewareHandler {
  const limitOf = (maxSize: number) =>
    bodyLimit({
      maxSize,
      onError: (c) =>
        errorResponse(c, new ApiError(413, ErrorCode.payloadTooLarge, 'The request body is too large.')),
    })
  const limit = limitOf(MAX_BODY_BYTES)
  const importLimit = limitOf(IMPORT_MAX_BODY_BYTES)
  return (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next()
    return larger(c.req.path) ? importLimit(c, next) : limit(c, next)
  }
}
