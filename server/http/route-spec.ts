import type { Access } from './access.ts'
import type { AnySchema } from './validate.ts'

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete'

export type ResponseSpec = { description: string; schema?: AnySchema }

/** What a route declares once: the router validates with it and the OpenAPI document is built from it. */
export type RouteSpec = {
  method: HttpMethod
  /** Hono path under /api, e.g. `/organizations/:id`. */
  path: string
  summary: string
  tag: string
  /** Who may call it; enforced by the router, recorded here for OpenAPI and the authorization matrix. */
  access: Access
  body?: AnySchema
  query?: AnySchema
  params?: AnySchema
  headers?: AnySchema
  responses: Record<number, ResponseSpec>
  /** `'session'`: a signed-in session only, never an API token (the routes that manage tokens). */
  credentials?: 'session'
}

export class RouteRegistry {
  readonly routes: RouteSpec[] = []

  add(spec: RouteSpec): void {
    const clash = this.routes.find((route) => route.method === spec.method && route.path === spec.path)
    if (clash) throw new Error(`Route registered twice: ${spec.method.toUpperCase()} ${spec.path}`)
    this.routes.push(spec)
  }
}
