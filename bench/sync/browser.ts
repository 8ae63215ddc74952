// In-browser measurements of the field mirror: the sync state and row counts in IndexedDB, the bytes and
// requests of the change feed (DevTools protocol), the storage used, and an offline scan timed in the page.
import type { BrowserContext, CDPSession, Page } from 'playwright-core'

export type SyncState = { cursor: string; sweepPending: boolean; syncedAt: number } | null

export function syncState(page: Page): Promise<SyncState> {
  return page.evaluate(
    () =>
      new Promise<SyncState>((resolve) => {
        const request = indexedDB.open('trousseau')
        request.onsuccess = () => {
          const db = request.result
          if (!db.objectStoreNames.contains('meta')) {
            db.close()
            return resolve(null)
          }
          const get = db.transaction('meta').objectStore('meta').get('sync')
          get.onsuccess = () => {
            db.close()
            resolve(get.result ? JSON.parse(get.result.value) : null)
          }
        }
        request.onerror = () => resolve(null)
      }),
  )
}

export function storeCounts(page: Page): Promise<Record<string, number>> {
  return page.evaluate(
    () =>
      new Promise<Record<string, number>>((resolve) => {
        const request = indexedDB.open('trousseau')
        request.onsuccess = () => {
          const db = request.result
          const names = ['tagBuckets', 'keychains', 'transfers'].filter((name) =>
            db.objectStoreNames.contains(name),
          )
          const counts: Record<string, number> = {}
          if (names.length === 0) return resolve(counts)
          const tx = db.transaction(names)
          for (const name of names) {
            if (name === 'tagBuckets') {
              // Tags are kept in buckets (src/offline/tag-store.ts): count what they hold.
              const all = tx.objectStore(name).getAll()
              all.onsuccess = () => {
                counts.tags = (all.result as { tags: unknown[] }[]).reduce(
                  (sum, bucket) => sum + bucket.tags.length,
                  0,
                )
              }
              continue
            }
            const count = tx.objectStore(name).count()
            count.onsuccess = () => {
              counts[name] = count.result
            }
          }
          tx.oncomplete = () => {
            db.close()
            resolve(counts)
          }
        }
      }),
  )
}

/** What `navigator.storage.estimate()` says IndexedDB holds for the origin (Chromium reports the detail). */
export function indexedDbBytes(page: Page): Promise<{ indexedDB: number | null; total: number }> {
  return page.evaluate(async () => {
    const estimate = (await navigator.storage.estimate()) as StorageEstimate & {
      usageDetails?: { indexedDB?: number }
    }
    return { indexedDB: estimate.usageDetails?.indexedDB ?? null, total: estimate.usage ?? 0 }
  })
}

/** Counts the change feed's requests and their bytes on the wire (headers and compressed body). */
export async function watchFeed(context: BrowserContext, page: Page) {
  const cdp: CDPSession = await context.newCDPSession(page)
  await cdp.send('Network.enable')
  const feed = new Set<string>()
  let requests = 0
  let bytes = 0
  cdp.on('Network.requestWillBeSent', (event) => {
    if (event.request.url.includes('/api/sync/changes')) {
      feed.add(event.requestId)
      requests += 1
    }
  })
  cdp.on('Network.loadingFinished', (event) => {
    if (feed.has(event.requestId)) bytes += event.encodedDataLength
  })
  return {
    reset() {
      requests = 0
      bytes = 0
    },
    /** Detached before the offline part: a second DevTools session with the network domain on keeps the
     * page's `navigator.onLine` true through Playwright's offline emulation. */
    stop: () => cdp.detach(),
    get requests() {
      return requests
    },
    get bytes() {
      return bytes
    },
  }
}

/** Waits until the stored sync state says a sync later than `after` ended (and no full sync is half-way). */
export async function waitForSync(page: Page, after: number, timeoutMs: number): Promise<SyncState> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const state = await syncState(page).catch(() => null)
    if (state && !state.sweepPending && state.syncedAt > after) return state
    if (Date.now() > deadline)
      throw new Error(`no sync ended within ${timeoutMs} ms (state: ${JSON.stringify(state)})`)
    await page.waitForTimeout(100)
  }
}

/** Marks the instant Enter goes down in the scan field, in the page's clock. */
export function markScanStarts(page: Page): Promise<void> {
  return page.evaluate(() => {
    document.addEventListener(
      'keydown',
      (event) => {
        if (event.key === 'Enter') (window as unknown as { scanStart: number }).scanStart = performance.now()
      },
      true,
    )
  })
}

/** Types a code and presses Enter; answers the ms from Enter until the keychain's name is painted. */
export async function timedScan(page: Page, code: string, keychain: string): Promise<number> {
  await page.getByLabel("Code ou lien de l'étiquette").fill(code)
  await page.keyboard.press('Enter')
  return page.evaluate(
    (name) =>
      new Promise<number>((resolve, reject) => {
        const start = (window as unknown as { scanStart: number }).scanStart
        const shown = () =>
          [...document.querySelectorAll('h2')].some((heading) => heading.textContent === name)
        const painted = () =>
          requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - start), 0))
        if (shown()) return painted()
        const observer = new MutationObserver(() => {
          if (!shown()) return
          observer.disconnect()
          painted()
        })
        observer.observe(document.body, { childList: true, subtree: true, characterData: true })
        setTimeout(() => reject(new Error(`${name} not shown within 10 s`)), 10_000)
      }),
    keychain,
  )
}
