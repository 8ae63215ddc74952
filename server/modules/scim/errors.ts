import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import * as v from 'valibot'
import { SCIM_CONTENT_TYPE, SCIM_ERROR_SCHEMA, type ScimErrorType } from '../../../contract/scim.ts'
import { ApiError } from '../../http/errors.ts'

/** An error as RFC 7644 §3.12 writes it: the HTTP status (as a string), a `scimType` where one fits, a detail. */
export class ScimError extends Error {
  readonly status: ContentfulStatusCode
  readonly scimType: ScimErrorType | undefined
  readonly headers: Record<string, string>

  constructor(
    status: ContentfulStatusCode,
    detail: string,
    scimType?: ScimErrorType,
    headers: Record<string, string> = {},
  ) {
    super(detail)
    this.status = status
    this.scimType = scimType
    this.headers = headers
  }
}

export const scimNotFound = (detail = 'No such resource.') => new ScimError(404, detail)

/** The first problem of a body or query that its schema refused, where it is (`name.givenName: …`). */
export function scimInvalid(issues: readonly v.BaseIssue<unknown>[], scimType: ScimErrorType): ScimError {
  const [issue] = issues
  const path = issue ? v.getDotPath(issue) : null
  // valibot's words for a key that is not there name its schema; say it as a person would.
  const message =
    issue?.kind === 'schema' && issue.input === undefined && path ? `${path} is required.` : issue?.message
  return new ScimError(400, `${path ? `${path}: ` : ''}${message ?? 'Invalid request.'}`, scimType)
}

export function scimJson(c: Context, body: unknown, status: ContentfulStatusCode = 200): Response {
  return c.body(JSON.stringify(body), status, { 'Content-Type': SCIM_CONTENT_TYPE })
}

/**
 * Any error under `/scim/v2` as a SCIM error: the API's own errors (a rule of the members' service, a rate
 * limit) keep their status and message; anything else is a 500 that says nothing of its cause.
 */
export function scimErrorResponse(c: Context, error: unknown): Response {
  const scim =
    error instanceof ScimError
      ? error
      : error instanceof ApiError
        ? new ScimError(error.status, error.message, undefined, error.headers)
        : new ScimError(500, 'The server failed to handle the request.')
  for (const [name, value] of Object.entries(scim.headers)) c.header(name, value)
  return scimJson(
    c,
    {
      schemas: [SCIM_ERROR_SCHEMA],
      status: String(scim.status),
      ...(scim.scimType ? { scimType: scim.scimType } : {}),
      detail: scim.message,
    },
    scim.status,
  )
}
