import * as v from 'valibot'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ApiError, api, shouldRetry } from './api.ts'

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

  it('follows the retry table of the specification', () => {
    for (const status of [408, 409, 425, 429, 500, 502, 503, 504])
      expect(shouldRetry('GET', status)).toBe(true)
    for (const method of ['HEAD', 'OPTIONS', 'PUT', 'DELETE']) expect(shouldRetry(method, 500)).toBe(true)
    expect(shouldRetry('GET', 404)).toBe(false)
    expect(shouldRetry('GET', 501)).toBe(false)
    expect(shouldRetry('POST', 503)).toBe(false)
    expect(shouldRetry('PATCH', 503)).toBe(false)
  })
})
