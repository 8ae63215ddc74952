import { type Context, Hono } from 'hono'
import * as v from 'valibot'
import { ErrorCode } from '../../contract/errors.ts'
import type { Db } from '../db/client.ts'
import type { Access, OrganizationAccess, OrganizationScope } from './access.ts'
import { apiTokenRefused, requiresSession, resolveAccess } from './access.ts'
import type { AppEnv, CurrentSession } from './env.ts'
import { ApiError, unauthenticated } from './errors.ts'
import type { HttpMethod, ResponseSpec, RouteRegistry } from './route-spec.ts'
import { type AnySchema, parseInput, readJson } from './validate.ts'

type Parsed<S> = S extends AnySchema ? v.InferOutput<S> : undefined

type RouteInput<B, Q, P, H, A extends Access> = {
  body: Parsed<B>
  query: Parsed<Q>
  params: Parsed<P>
  headers: Parsed<H>
  session: A extends 'public' ? CurrentSession | null : CurrentSession
  /**
   * The organization the permission was checked in (selected or from the path), with the caller's role; null
   * for an operator passing an `orOperator` declaration without the permission there.
   */
  organization: A extends OrganizationAccess
    ? A extends { operators: true }
      ? OrganizationScope | null
      : OrganizationScope
    : null
  /** Whether the caller is a platform operator (OPERATOR_EMAILS). */
  operator: boolean
}

export type RouteDefinition<B, Q, P, H, A extends Access> = {
  method: HttpMethod
  path: string
  summary: string
  /** Required: who may call it (see `Access`). The router enforces it before parsing the body. */
  access: A
  body?: B
  query?: Q
  params?: P
  /** Request headers, validated by name in lower case. */
  headers?: H
  /** The success answer's schema (from the contract's endpoint): given to the 2xx response that names none. */
  response?: AnySchema
  responses: Record<number, ResponseSpec>
  /** Replaces the usual 400 `validation_failed` when the input does not parse (sign-in answers one message). */
  invalidInput?: () => ApiError
  /** `'session'`: a signed-in session only, never an API token (403), e.g. the routes that manage tokens. */
  credentials?: 'session'
}

export type RouteHandler<B, Q, P, H, A extends Access> = (
  c: Context<AppEnv>,
  input: RouteInput<B, Q, P, H, A>,
) => Response | Promise<Response>

/**
 * One per module (tag). `route()` registers the spec in the shared registry (→ OpenAPI, authorization
 * matrix) and mounts a handler that enforces the access declaration, then parses params, headers, query and
 * JSON body with the very same schemas before calling the module's handler.
 */
export class ApiRouter {
  readonly hono = new Hono<AppEnv>()
  readonly #registry: RouteRegistry
  readonly #tag: string
  readonly #checkResponses: boolean
  readonly #db: Db
  readonly #isOperator: (email: string) => boolean

  constructor(
    registry: RouteRegistry,
    tag: string,
    options: { db: Db; checkResponses?: boolean; isOperator?: (email: string) => boolean },
  ) {
    this.#registry = registry
    this.#tag = tag
    this.#db = options.db
    this.#checkResponses = options.checkResponses ?? false
    this.#isOperator = options.isOperator ?? (() => false)
  }

  route<
    B extends AnySchema | undefined = undefined,
    Q extends AnySchema | undefined = undefined,
    P extends AnySchema | undefined = undefined,
    H extends AnySchema | undefined = undefined,
    A extends Access = Access,
  >(definition: RouteDefinition<B, Q, P, H, A>, handler: RouteHandler<B, Q, P, H, A>): this {
    const { invalidInput, response, ...spec } = definition
    if (response) {
      const success = Object.keys(spec.responses).find(
        (status) => Number(status) >= 200 && Number(status) < 300,
      )
      const declared = success === undefined ? undefined : spec.responses[Number(success)]
      if (!declared) throw new Error(`${spec.method} ${spec.path}: an answer schema needs a 2xx response`)
      declared.schema ??= response
    }
    this.#registry.add({ ...spec, tag: this.#tag } as Parameters<RouteRegistry['add']>[0])
    this.hono.on(spec.method.toUpperCase(), spec.path, async (c) => {
      const parse = async (schema: AnySchema | undefined, value: () => unknown) => {
        if (!schema) return undefined
        try {
          return parseInput(schema, await value())
        } catch (error) {
          throw invalidInput && error instanceof ApiError ? invalidInput() : error
        }
      }
      const session = c.var.session
      if (requiresSession(definition.access) && !session) throw unauthenticated()
      if (definition.credentials === 'session' && session?.token) throw apiTokenRefused()
      const params = await parse(definition.params, () => c.req.param())
      // An organization token is no person: it never acts as a platform operator.
      const operator =
        session && session.token?.kind !== 'organization' ? this.#isOperator(session.user.email) : false
      const organization = await resolveAccess(this.#db, definition.access, session, params, operator)
      const headers = await parse(definition.headers, () => c.req.header())
      const query = await parse(definition.query, () => c.req.query())
      const body = await parse(definition.body, () => readJson(c))
      const input = { body, query, params, headers, session, organization, operator } as RouteInput<
        B,
        Q,
        P,
        H,
        A
      >
      const response = await handler(c, input)
      if (this.#checkResponses) await checkResponse(definition, response)
      return response
    })
    return this
  }
}

/** Test-time guard: the answer must have a declared status and match its declared schema. */
async function checkResponse(
  definition: { method: string; path: string; responses: Record<number, ResponseSpec> },
  response: Response,
) {
  const where = `${definition.method.toUpperCase()} ${definition.path} → ${response.status}`
  if (response.status >= 400) return
  const declared = definition.responses[response.status]
  if (!declared) throw new ApiError(500, ErrorCode.internal, `Undeclared response status: ${where}`)
  if (!declared.schema) return
  const result = v.safeParse(declared.schema, await response.clone().json())
  if (!result.success) {
    const issue = result.issues[0]
    throw new ApiError(
      500,
      ErrorCode.internal,
      `Response does not match its schema: ${where}: ${v.getDotPath(issue)} ${issue.message}`,
    )
  }
}
