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

/** The query string of `query`, `?` included, leaving out what is undefined, null or empty. */
export function searchOf(query: object = {}): string {
  const search = `${new URLSearchParams(
    Object.entries(query).filter(([, value]) => value != null && value !== '') as [string, string][],
  )}`
  return search && `?${search}`
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
  const { params, query, ...request } = (input ?? {}) as CallInput<Endpoint> & {
    params?: Record<string, string>
    query?: object
  }
  return api(pathOf(endpoint.path, params) + searchOf(query), {
    ...request,
    method: endpoint.method.toUpperCase() as NonNullable<ApiRequest<undefined>['method']>,
    schema: endpoint.response as E['response'],
  }) as Promise<Result<E['response']>>
}
