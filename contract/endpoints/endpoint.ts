import type * as v from 'valibot'

// An API operation declared once: its method, path, and the schemas of its parameters, query, headers, body and
// success answer. The server mounts it (`api.route({ ...endpoint, summary, access, responses }, handler)`), the
// OpenAPI document describes it from there, and the browser calls it (`call(endpoint, { params, query, body })`;
// its build leaves the request schemas out, see scripts/vite-endpoint-tables.ts).

type EndpointMethod = 'get' | 'post' | 'put' | 'patch' | 'delete'

export type Endpoint = {
  method: EndpointMethod
  /** Hono's pattern: `/keychains/:id/keys/:keyId`. */
  path: string
  params?: v.GenericSchema
  query?: v.GenericSchema
  body?: v.GenericSchema
  /** Request headers the server reads (`Idempotency-Key`…); the caller passes them in `call(…, { headers })`. */
  headers?: v.GenericSchema
  /** The success answer's schema; none for 204. */
  response?: v.GenericSchema
}

export function endpoint<const E extends Endpoint>(spec: E): E {
  return spec
}

/** The path with its parameters filled in, each URI-encoded: `/keychains/:id` + `{ id: 'k 1' }` → `/keychains/k%201`. */
export function pathOf(path: string, params: Record<string, string> = {}): string {
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params[name]
    if (value === undefined) throw new Error(`${path} needs its ${name}`)
    return encodeURIComponent(value)
  })
}
