import * as v from 'valibot'
import { type ApiErrorBody, ApiErrorSchema } from '../../contract/errors.ts'
import { isLocale } from '../../contract/locale.ts'

export const API_BASE_URL: string = import.meta.env.VITE_API_BASE_URL ?? '/api'

const RETRYABLE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE'])
const RETRYABLE_STATUSES = new Set([408, 409, 425, 429, 500, 502, 503, 504])

/** An API answer that is not a success, or a request that never reached the server (status 0). */
export class ApiError extends Error {
  readonly status: number
  readonly code: string
  /** The whole error body (field issues, `reason`, allowance figures…), when the server sent one. */
  readonly details: ApiErrorBody['error'] | null

  constructor(status: number, code: string, message: string, details: ApiErrorBody['error'] | null = null) {
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.code = code
    this.details = details
  }

  get isNetworkError(): boolean {
    return this.status === 0
  }
}

export type ApiRequest<TSchema extends v.GenericSchema | undefined> = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS'
  body?: unknown
  schema?: TSchema
  headers?: Record<string, string>
  signal?: AbortSignal
}

export type Result<TSchema> = TSchema extends v.GenericSchema ? v.InferOutput<TSchema> : undefined

export function shouldRetry(method: string, status: number): boolean {
  return RETRYABLE_METHODS.has(method) && RETRYABLE_STATUSES.has(status)
}

type ReachListener = (reached: boolean) => void
const reachListeners = new Set<ReachListener>()

/**
 * Tells `listener` after each request whether the server answered at all: a failed request, not
 * `navigator.onLine`, is what says the device is offline. Answers the way to stop listening.
 */
export function onServerReach(listener: ReachListener): () => void {
  reachListeners.add(listener)
  return () => reachListeners.delete(listener)
}

async function send(url: string, init: RequestInit): Promise<Response> {
  try {
    const response = await fetch(url, init)
    for (const listener of reachListeners) listener(true)
    return response
  } catch (cause) {
    if (init.signal?.aborted) throw cause
    for (const listener of reachListeners) listener(false)
    throw new ApiError(0, 'network_error', 'The server could not be reached.')
  }
}

async function errorOf(response: Response): Promise<ApiError> {
  const body: unknown = await response.json().catch(() => null)
  const parsed = v.safeParse(ApiErrorSchema, body)
  if (parsed.success)
    return new ApiError(
      response.status,
      parsed.output.error.code,
      parsed.output.error.message,
      parsed.output.error,
    )
  return new ApiError(response.status, 'http_error', response.statusText || 'An error occurred.')
}

/** The page's language (`<html lang>`, set with the active locale): the server answers its messages in it. */
function pageLanguage(): Record<string, string> {
  const lang = typeof document === 'undefined' ? '' : document.documentElement.lang
  return isLocale(lang) ? { 'Accept-Language': lang } : {}
}

/**
 * Calls the API with credentials, retries an idempotent request once on a transient status,
 * and parses the answer with the contract's schema.
 */
export async function api<TSchema extends v.GenericSchema | undefined = undefined>(
  path: string,
  request: ApiRequest<TSchema> = {},
): Promise<Result<TSchema>> {
  const method = request.method ?? 'GET'
  const headers: Record<string, string> = {
    Accept: 'application/json',
    ...pageLanguage(),
    ...request.headers,
  }
  if (request.body !== undefined) headers['Content-Type'] = 'application/json'
  const init: RequestInit = {
    method,
    headers,
    credentials: 'include',
    body: request.body === undefined ? undefined : JSON.stringify(request.body),
    signal: request.signal,
  }
  const url = `${API_BASE_URL}${path}`
  let response = await send(url, init)
  if (!response.ok && shouldRetry(method, response.status)) response = await send(url, init)
  if (!response.ok) throw await errorOf(response)
  if (!request.schema || response.status === 204) return undefined as Result<TSchema>
  return v.parse(request.schema, await response.json()) as Result<TSchema>
}

/** Whether the server refused with this HTTP status (and, when given, this code). */
export function refusedWith(error: unknown, status: number, code?: string): error is ApiError {
  return error instanceof ApiError && error.status === status && (code === undefined || error.code === code)
}
