import type * as v from 'valibot'
import { type Endpoint, pathOf } from '../../contract/endpoints/endpoint.ts'
import { type ApiRequest, api, type Result } from './api.ts'

// Kept apart from the API client: the prerendered sign-in page loads the client, not the endpoint tables.

type Given<S> = S extends v.GenericSchema ? v.InferInput<S> : never

/** What a call of `E` gives: its path parameters, its query (empty values left out), its body. */
export type CallInput<E extends Endpoint> = (E['params'] extends v.GenericSchema
  ? { params: Given<E['params']> }
  : { params?: undefined }) &
  (E['query'] extends v.GenericSchema ? { query?: Partial<Given<E['query']>> } : { query?: undefined }) &
  (E['body'] extends v.GenericSchema ? { body: Given<E['body']> } : { body?: undefined }) & {
    headers?: Record<string, string>
    signal?: AbortSignal
  }

/** The query string of `query`, leaving out what is undefined, null or empty. */
function searchOf(query: Record<string, unknown> | undefined): string {
  const search = new URLSearchParams()
  for (const [name, value] of Object.entries(query ?? {}))
    if (value !== undefined && value !== null && value !== '') search.set(name, String(value))
  const text = search.toString()
  return text ? `?${text}` : ''
}

/** Calls a contract endpoint: its path filled in with `params`, `query` and `body` sent, the answer parsed. */
export function call<E extends Endpoint>(
  endpoint: E,
  ...[input]: E['params'] extends v.GenericSchema
    ? [CallInput<E>]
    : E['body'] extends v.GenericSchema
      ? [CallInput<E>]
      : [CallInput<E>?]
): Promise<Result<E['response']>> {
  const given = (input ?? {}) as CallInput<Endpoint> & { params?: Record<string, string> }
  return api(
    `${pathOf(endpoint.path, given.params)}${searchOf(given.query as Record<string, unknown> | undefined)}`,
    {
      method: endpoint.method.toUpperCase() as NonNullable<ApiRequest<undefined>['method']>,
      body: given.body,
      schema: endpoint.response as E['response'],
      headers: given.headers,
      signal: given.signal,
    },
  ) as Promise<Result<E['response']>>
}
