// Imported by the generated service worker (vite.pwa.ts), after sw-deferred-list.js, which the build writes with
// this build's deferred files (office routes and their chunks) in self.__TROUSSEAU_DEFERRED__. The install
// precaches only the shell and the field routes; a page, once idle, asks for the rest (WARM below), fetched
// here with low priority, a few at a time, only online and never when the browser asks to save data. The
// worker's CacheFirst route for /assets/ reads (and fills) the same cache. Names: src/pwa/worker.ts.
;((self) => {
  const CACHE = 'trousseau-deferred'
  const WARM = 'trousseau:warm-deferred'
  const AT_ONCE = 3

  /** This build's deferred files as absolute URLs, or null when the build gave no list. */
  const listed = () => {
    const paths = self.__TROUSSEAU_DEFERRED__
    return Array.isArray(paths) ? paths.map((path) => new URL(path, self.location.href).href) : null
  }
  const mayFetch = () => self.navigator.onLine !== false && !self.navigator.connection?.saveData

  /** Fetches the listed files the cache does not hold; stops at the first network failure. */
  async function warm() {
    const urls = listed()
    if (!urls || !mayFetch()) return
    const cache = await self.caches.open(CACHE)
    const cached = new Set((await cache.keys()).map((request) => request.url))
    const queue = urls.filter((url) => !cached.has(url))
    const fetchNext = async () => {
      while (queue.length > 0 && mayFetch()) {
        const url = queue.shift()
        let response
        try {
          response = await self.fetch(url, { priority: 'low', credentials: 'same-origin' })
        } catch {
          queue.length = 0 // the network is gone: the next idle page asks again
          return
        }
        if (response.ok) await cache.put(url, response)
      }
    }
    await Promise.all(Array.from({ length: AT_ONCE }, fetchNext))
  }

  /** Drops cached files that this build no longer lists (older builds' chunks): the cache does not grow. */
  async function prune() {
    const urls = listed()
    if (!urls) return
    const keep = new Set(urls)
    const cache = await self.caches.open(CACHE)
    const stale = (await cache.keys()).filter((request) => !keep.has(request.url))
    await Promise.all(stale.map((request) => cache.delete(request)))
  }

  let warming = null
  self.addEventListener('message', (event) => {
    if (event.data?.type !== WARM) return
    warming ??= warm()
      .catch((error) => console.warn('Caching the deferred files failed', error))
      .finally(() => {
        warming = null
      })
    event.waitUntil(warming)
  })

  self.addEventListener('activate', (event) => {
    event.waitUntil(prune())
  })
})(self)
