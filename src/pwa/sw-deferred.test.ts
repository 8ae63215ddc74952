// The worker's side of the deferred cache (public/sw-deferred.js, a plain script the generated worker imports),
// run against a fake worker global.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { WARM_DEFERRED } from './warm.ts'
import { DEFERRED_CACHE } from './worker.ts'

const source = readFileSync(resolve(__dirname, '../../public/sw-deferred.js'), 'utf8')
const ORIGIN = 'https://trousseau.test'
type Listener = (event: { data?: unknown; waitUntil: (promise: Promise<unknown>) => void }) => void

function fakeWorker({ cached = [] as string[], onLine = true, saveData = false } = {}) {
  const store = new Map<string, Response>(cached.map((url) => [`${ORIGIN}${url}`, new Response('old')]))
  const cache = {
    keys: async () => [...store.keys()].map((url) => new Request(url)),
    put: async (url: string, response: Response) => void store.set(url, response),
    delete: async (request: Request) => store.delete(request.url),
  }
  const pending: Array<{ url: string; answer: (response: Response | Error) => void }> = []
  const fetch = vi.fn(
    (url: string, _init?: RequestInit) =>
      new Promise<Response>((resolve, reject) =>
        pending.push({ url, answer: (out) => (out instanceof Error ? reject(out) : resolve(out)) }),
      ),
  )
  const listeners = new Map<string, Listener>()
  const worker = {
    __TROUSSEAU_DEFERRED__: ['/assets/a.js', '/assets/b.js', '/assets/c.js', '/assets/d.js', '/assets/e.js'],
    location: { href: `${ORIGIN}/sw.js` },
    navigator: { onLine, connection: { saveData } },
    caches: { open: vi.fn(async () => cache) },
    fetch,
    addEventListener: (type: string, listener: Listener) => listeners.set(type, listener),
  }
  new Function('self', source)(worker)
  const dispatch = (type: string, data?: unknown) => {
    let done: Promise<unknown> = Promise.resolve()
    listeners.get(type)?.({ data, waitUntil: (promise) => (done = promise) })
    return done
  }
  return { worker, store, fetch, pending, dispatch }
}

/** Lets the worker's promise chains run (microtasks only: no timer, no sleep). */
async function settle() {
  for (let turn = 0; turn < 50; turn++) await Promise.resolve()
}

describe('the worker caching the deferred files', () => {
  it('uses the names the page and the build use', () => {
    expect(source).toContain(`'${DEFERRED_CACHE}'`)
    expect(source).toContain(`'${WARM_DEFERRED}'`)
  })

  it('fetches only the listed files it lacks, three at a time, at low priority', async () => {
    const { worker, store, fetch, pending, dispatch } = fakeWorker({ cached: ['/assets/b.js'] })
    const done = dispatch('message', { type: WARM_DEFERRED })
    await settle()
    expect(fetch.mock.calls.map(([url]) => url)).toEqual([
      `${ORIGIN}/assets/a.js`,
      `${ORIGIN}/assets/c.js`,
      `${ORIGIN}/assets/d.js`,
    ])
    expect(fetch.mock.calls[0]?.[1]).toMatchObject({ priority: 'low' })
    expect(worker.caches.open).toHaveBeenCalledWith(DEFERRED_CACHE)

    pending.shift()?.answer(new Response('a'))
    await settle()
    expect(fetch).toHaveBeenCalledTimes(4) // one done, one more started: never more than three in flight
    expect(pending).toHaveLength(3)
    while (pending.length > 0) {
      pending.shift()?.answer(new Response('x'))
      await settle()
    }
    await done
    expect(fetch).toHaveBeenCalledTimes(4)
    expect([...store.keys()].sort()).toEqual(
      ['a', 'b', 'c', 'd', 'e'].map((name) => `${ORIGIN}/assets/${name}.js`),
    )
  })

  it('ignores other messages, and a second request while one runs', async () => {
    const { fetch, pending, dispatch } = fakeWorker()
    dispatch('message', { type: 'SKIP_WAITING' })
    await settle()
    expect(fetch).not.toHaveBeenCalled()
    dispatch('message', { type: WARM_DEFERRED })
    dispatch('message', { type: WARM_DEFERRED })
    await settle()
    expect(fetch).toHaveBeenCalledTimes(3)
    for (const request of pending) request.answer(new Response('x'))
  })

  it('does nothing offline or when the browser asks to save data', async () => {
    for (const options of [{ onLine: false }, { saveData: true }]) {
      const { fetch, dispatch } = fakeWorker(options)
      await dispatch('message', { type: WARM_DEFERRED })
      expect(fetch).not.toHaveBeenCalled()
    }
  })

  it('stops at the first network failure and keeps what failed out of the cache', async () => {
    const { store, fetch, pending, dispatch } = fakeWorker()
    const done = dispatch('message', { type: WARM_DEFERRED })
    await settle()
    pending.shift()?.answer(new TypeError('Failed to fetch'))
    pending.shift()?.answer(new Response('missing', { status: 404 }))
    pending.shift()?.answer(new Response('c'))
    await done
    expect(fetch).toHaveBeenCalledTimes(3)
    expect([...store.keys()]).toEqual([`${ORIGIN}/assets/c.js`])
  })

  it('drops, when a new build activates, the cached files its list no longer has', async () => {
    const { store, dispatch } = fakeWorker({ cached: ['/assets/a.js', '/assets/old-build.js'] })
    await dispatch('activate')
    expect([...store.keys()]).toEqual([`${ORIGIN}/assets/a.js`])
  })
})
