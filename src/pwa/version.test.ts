import { afterEach, describe, expect, it, vi } from 'vitest'
import { isNewerBuild, VERSION_POLL_MS } from './version.ts'

afterEach(() => {
  vi.unstubAllGlobals()
})

const serve = (response: Response | Error) =>
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => {
      if (response instanceof Error) throw response
      return response
    }),
  )

describe('build version polling', () => {
  it('polls every hour', () => {
    expect(VERSION_POLL_MS).toBe(3_600_000)
  })

  it('says yes only when the server serves another version, asking past every cache', async () => {
    serve(new Response(JSON.stringify({ version: '2' })))
    expect(await isNewerBuild('1')).toBe(true)
    expect(vi.mocked(fetch).mock.calls[0]).toEqual(['/version.json', { cache: 'no-store' }])
    serve(new Response(JSON.stringify({ version: '1' })))
    expect(await isNewerBuild('1')).toBe(false)
  })

  it('says no when offline or when the file is missing or malformed', async () => {
    serve(new TypeError('Failed to fetch'))
    expect(await isNewerBuild('1')).toBe(false)
    serve(new Response('not found', { status: 404 }))
    expect(await isNewerBuild('1')).toBe(false)
    serve(new Response('{"v":2}'))
    expect(await isNewerBuild('1')).toBe(false)
  })
})
