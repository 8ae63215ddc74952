import { ErrorCode } from '../../contract/errors.ts'
import { requiresSession } from './access.ts'
import type { RouteSpec } from './route-spec.ts'

/** One error an operation can answer: its status, its code (from contract/errors.ts) and when. */
export type OperationError = { status: number; code: ErrorCode; when: string }

const KNOWN_CODES = new Set<string>(Object.values(ErrorCode))

/** The code a declared error status stands for when its description names none. */
const STATUS_DEFAULT: Record<number, ErrorCode> = {
  400: ErrorCode.validation,
  401: ErrorCode.unauthenticated,
  402: ErrorCode.subscriptionRequired,
  403: ErrorCode.forbidden,
  404: ErrorCode.notFound,
  409: ErrorCode.conflict,
  413: ErrorCode.payloadTooLarge,
  415: ErrorCode.unsupportedMediaType,
  422: ErrorCode.idempotencyKeyReused,
  429: ErrorCode.rateLimited,
  500: ErrorCode.internal,
  503: ErrorCode.unavailable,
}

/** The codes a route's own response description names: `tag_taken`, or a bare snake_case code. */
export function codesNamedIn(description: string): ErrorCode[] {
  const words = description.match(/`[a-z_]+`|\b[a-z]+(?:_[a-z]+)+\b/g) ?? []
  const codes = words.map((word) => word.replaceAll('`', '')).filter((word) => KNOWN_CODES.has(word))
  return [...new Set(codes)] as ErrorCode[]
}

/**
 * Every error an operation can answer, derived from what its definition declares (not from a list kept by
 * hand): the answers its access declaration, inputs and method imply through the router and the /api
 * middleware, then the error statuses the route itself declares, with the codes their descriptions name
 * (the status's usual code when they name none).
 */
export function operationErrors(spec: RouteSpec): OperationError[] {
  const { access, method } = spec
  const scoped = typeof access === 'object'
  const writes = method !== 'get'
  const errors: OperationError[] = []
  const add = (status: number, code: ErrorCode, when: string) => errors.push({ status, code, when })

  for (const [status, response] of Object.entries(spec.responses)) {
    const numeric = Number(status)
    if (numeric < 400) continue
    const named = codesNamedIn(response.description)
    const codes = named.length > 0 ? named : [STATUS_DEFAULT[numeric]]
    for (const code of codes) {
      if (!code) throw new Error(`${method} ${spec.path}: name the error code of its ${status} answer`)
      add(numeric, code, response.description)
    }
  }
  if (spec.body || spec.query || spec.params || spec.headers)
    add(400, ErrorCode.validation, 'The input does not match its schema')
  if (spec.body)
    add(400, ErrorCode.badRequest, 'The body could not be read whole, or nests more than 32 levels deep')
  if (scoped && access.organization === 'selected')
    add(400, ErrorCode.noOrganizationSelected, 'No organization selected')
  if (requiresSession(access)) add(401, ErrorCode.unauthenticated, 'Not signed in')
  add(401, ErrorCode.unauthenticated, 'An API token that is unknown, revoked or expired')
  if (scoped) add(403, ErrorCode.forbidden, `The role lacks \`${access.permission}\``)
  if (access === 'operator') add(403, ErrorCode.forbidden, 'Not a platform operator')
  if (access === 'signedIn' || access === 'operator')
    add(403, ErrorCode.forbidden, 'Called with an organization API token (this is a person’s route)')
  if (spec.credentials === 'session') add(403, ErrorCode.forbidden, 'Called with an API token')
  if (writes)
    add(403, ErrorCode.originRejected, 'A session cookie sent from an Origin the server does not trust')
  if (scoped || spec.params) add(404, ErrorCode.notFound, 'Not found (or in another organization)')
  if (writes) add(413, ErrorCode.payloadTooLarge, 'The body is too large')
  if (writes) add(415, ErrorCode.unsupportedMediaType, 'A body that is not JSON')
  if (spec.headers && 'entries' in spec.headers && 'idempotency-key' in (spec.headers.entries as object))
    add(422, ErrorCode.idempotencyKeyReused, 'The Idempotency-Key was used for another request')
  add(429, ErrorCode.rateLimited, 'The API token is over its rate limit (`Retry-After`)')
  add(500, ErrorCode.internal, 'Unexpected error')

  const seen = new Set<string>()
  return errors
    .filter((error) => {
      const key = `${error.status} ${error.code} ${error.when}`
      if (seen.has(key)) return false
      seen.add(key)
      return true
    })
    .sort((a, b) => a.status - b.status)
}

/** The operation's errors by status: each status with its codes and the cases that answer it. */
export function errorsByStatus(
  spec: RouteSpec,
): Map<number, { codes: ErrorCode[]; cases: OperationError[] }> {
  const byStatus = new Map<number, { codes: ErrorCode[]; cases: OperationError[] }>()
  for (const error of operationErrors(spec)) {
    const entry = byStatus.get(error.status) ?? { codes: [], cases: [] }
    if (!entry.codes.includes(error.code)) entry.codes.push(error.code)
    entry.cases.push(error)
    byStatus.set(error.status, entry)
  }
  return byStatus
}
