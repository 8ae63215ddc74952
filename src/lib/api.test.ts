import * as v from 'valibot'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { pathOf } from '../../contract/endpoints/endpoint.ts'
import { keychainEndpoints } from '../../contract/endpoints/keychains.ts'
import { ApiError, api, shouldRetry } from './api.ts'
import { call } from './call.ts'

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

function stubFetch(...responses: Array<Response | Error>) {
  const fetchMock = vi.fn(async () => {
    const next = responses.shift()
    if (!next) throw new Error('no more responses')
    if (next instanceof Error) throw next
    return next
  })
  vi.stubGlobal('fetch', fetchMock)
  return fetchMock
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('api client', () => {
  it('sends credentials and JSON, and parses the answer with the schema', async () => {
    const fetchMock = stubFetch(json(200, { name: 'Ada', extra: 1 }))
    const result = await api('/thing', {
      method: 'POST',
      body: { a: 1 },
      schema: v.object({ name: v.string() }),
    })
    expect(result).toEqual({ name: 'Ada' })
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit]
    expect(url).toBe('/api/thing')
    expect(init.credentials).toBe('include')
    expect(init.body).toBe('{"a":1}')
    expect((init.headers as Record<string, string>)['Content-Type']).toBe('application/json')
  })

  it('asks for answers in the page’s language, which a caller’s own header overrides', async () => {
    const fetchMock = stubFetch(json(200, {}), json(200, {}), json(200, {}))
    document.documentElement.lang = 'en'
    await api('/profile')
    document.documentElement.lang = 'fr'
    await api('/profile')
    await api('/profile', { headers: { 'Accept-Language': 'en' } })
    document.documentElement.lang = ''
    const sent = fetchMock.mock.calls.map((call) => {
      const init = (call as unknown as [string, RequestInit])[1]
      return (init.headers as Record<string, string>)['Accept-Language']
    })
    expect(sent).toEqual(['en', 'fr', 'en'])
  })

  it('retries an idempotent request once on a transient status', async () => {
    const fetchMock = stubFetch(json(503, {}), json(200, { ok: true }))
    await expect(api('/x', { schema: v.object({ ok: v.boolean() }) })).resolves.toEqual({ ok: true })
    expect(fetchMock).toHaveBeenCalledTimes(2)
  })

  it('retries only once', async () => {
    const fetchMock = stubFetch(json(502, {}), json(502, {}), json(200, {}))
    await expect(api('/x')).rejects.toMatchObject({ status: 502 })
    expect(fetchMock).toHaveBeenCalledTimes(2)
  })

  it('never retries a POST', async () => {
    const fetchMock = stubFetch(json(503, { error: { code: 'service_unavailable', message: 'Down' } }))
    await expect(api('/x', { method: 'POST', body: {} })).rejects.toMatchObject({
      status: 503,
      code: 'service_unavailable',
    })
    expect(fetchMock).toHaveBeenCalledTimes(1)
  })

  it('does not retry a client error and keeps its code and message', async () => {
    const fetchMock = stubFetch(json(404, { error: { code: 'not_found', message: 'No such thing' } }))
    const error = await api('/x').catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({ status: 404, code: 'not_found', message: 'No such thing' })
    expect(fetchMock).toHaveBeenCalledTimes(1)
  })

  it('reports an unreachable server as a network error (status 0)', async () => {
    stubFetch(new TypeError('Failed to fetch'))
    const error = (await api('/x', { method: 'POST' }).catch((caught: unknown) => caught)) as ApiError
    expect(error.isNetworkError).toBe(true)
  })

  it('retries idempotent methods on 408, 409, 425, 429, 500, 502, 503 and 504 only', () => {
    for (const status of [408, 409, 425, 429, 500, 502, 503, 504])
      expect(shouldRetry('GET', status)).toBe(true)
    for (const method of ['HEAD', 'OPTIONS', 'PUT', 'DELETE']) expect(shouldRetry(method, 500)).toBe(true)
    expect(shouldRetry('GET', 404)).toBe(false)
    expect(shouldRetry('GET', 501)).toBe(false)
    expect(shouldRetry('POST', 503)).toBe(false)
    expect(shouldRetry('PATCH', 503)).toBe(false)
  })
})

describe('calling a contract endpoint', () => {
  const keychain = {
    id: 'k1',
    organizationId: 'o1',
    organizationName: 'Agence',
    name: 'Cave',
    custodian: null,
    keys: [],
    createdAt: '2030-01-01T00:00:00.000Z',
    updatedAt: '2030-01-01T00:00:00.000Z',
  }

  it('fills the path, sends the method and body, and parses the answer with the endpoint’s schema', async () => {
    const fetchMock = stubFetch(json(200, { ...keychain, extra: true }))
    const answer = await call(keychainEndpoints.update, { params: { id: 'k/1 é' }, body: { name: 'Cave B' } })
    expect(answer).toEqual(keychain)
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit]
    expect(url).toBe('/api/keychains/k%2F1%20%C3%A9')
    expect(init.method).toBe('PATCH')
    expect(init.body).toBe('{"name":"Cave B"}')
  })

  it('sends the query without its empty values, and nothing for an answer without a schema', async () => {
    const fetchMock = stubFetch(
      json(200, { data: [], nextCursor: null }),
      new Response(null, { status: 204 }),
    )
    await call(keychainEndpoints.list, { query: { q: 'cave & co', custodianId: '', cursor: undefined } })
    expect((fetchMock.mock.calls[0] as unknown as [string])[0]).toBe('/api/keychains?q=cave+%26+co')
    expect(await call(keychainEndpoints.removeKey, { params: { id: 'k1', keyId: 'key1' } })).toBeUndefined()
    const [url, init] = fetchMock.mock.calls[1] as unknown as [string, RequestInit]
    expect(url).toBe('/api/keychains/k1/keys/key1')
    expect(init.method).toBe('DELETE')
  })

  it('refuses to call a path with a parameter missing', () => {
    expect(() => pathOf('/keychains/:id/keys/:keyId', { id: 'k1' })).toThrow(
      '/keychains/:id/keys/:keyId needs its keyId',
    )
  })
})
