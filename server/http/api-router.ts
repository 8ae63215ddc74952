import { type Context, Hono } from 'hono'
import * as v from 'valibot'
import { ErrorCode } from '../../contract/errors.ts'
import type { AppEnv, CurrentSession } from './env.ts'
import { ApiError, unauthenticated } from './errors.ts'
import type { HttpMethod, ResponseSpec, RouteRegistry } from './openapi.ts'
import { type AnySchema, parseInput, readJson } from './validate.ts'

type Parsed<S> = S extends AnySchema ? v.InferOutput<S> : undefined

export type RouteInput<B, Q, P, A> = {
  body: Parsed<B>
  query: Parsed<Q>
  params: Parsed<P>
  session: A extends true ? CurrentSession : CurrentSession | null
}

export type RouteDefinition<B, Q, P, A> = {
  method: HttpMethod
  path: string
  summary: string
  auth?: A
  body?: B
  query?: Q
  params?: P
  responses: Record<number, ResponseSpec>
  /** Replaces the usual 400 `validation_failed` when the input does not parse (sign-in answers one message). */
  invalidInput?: () => ApiError
}

export type RouteHandler<B, Q, P, A> = (
  c: Context<AppEnv>,
  input: RouteInput<B, Q, P, A>,
) => Response | Promise<Response>

/**
 * One per module (tag). `route()` registers the spec in the shared registry (→ OpenAPI) and mounts a handler
 * that parses params, query and JSON body with the very same schemas before calling the module's handler.
 */
export class ApiRouter {
  readonly hono = new Hono<AppEnv>()
  readonly #registry: RouteRegistry
  readonly #tag: string
  readonly #checkResponses: boolean

  constructor(registry: RouteRegistry, tag: string, options: { checkResponses?: boolean } = {}) {
    this.#registry = registry
    this.#tag = tag
    this.#checkResponses = options.checkResponses ?? false
  }

  route<
    B extends AnySchema | undefined = undefined,
    Q extends AnySchema | undefined = undefined,
    P extends AnySchema | undefined = undefined,
    A extends boolean = false,
  >(definition: RouteDefinition<B, Q, P, A>, handler: RouteHandler<B, Q, P, A>): this {
    const { invalidInput, ...spec } = definition
    this.#registry.add({ ...spec, tag: this.#tag } as Parameters<RouteRegistry['add']>[0])
    this.hono.on(spec.method.toUpperCase(), spec.path, async (c) => {
      const session = c.var.session
      if (definition.auth && !session) throw unauthenticated()
      const parse = async (schema: AnySchema | undefined, value: () => unknown) => {
        if (!schema) return undefined
        try {
          return parseInput(schema, await value())
        } catch (error) {
          throw invalidInput && error instanceof ApiError ? invalidInput() : error
        }
      }
      const params = await parse(definition.params, () => c.req.param())
      const query = await parse(definition.query, () => c.req.query())
      const body = await parse(definition.body, () => readJson(c))
      const input = { body, query, params, session } as RouteInput<B, Q, P, A>
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
