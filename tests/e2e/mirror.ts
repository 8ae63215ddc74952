import type { Page } from 'playwright-core'

/** The rows of a store of the app's IndexedDB, as stored (none before the app created it). */
export function storedRows(page: Page, store: string): Promise<Record<string, unknown>[]> {
  return page.evaluate(
    (name) =>
      new Promise<Record<string, unknown>[]>((resolve) => {
        const request = indexedDB.open('trousseau')
        request.onsuccess = () => {
          const db = request.result
          if (!db.objectStoreNames.contains(name)) {
            // Opened before the app created it: let the app's upgrade through.
            db.close()
            return resolve([])
          }
          const all = db.transaction(name).objectStore(name).getAll()
          all.onsuccess = () => {
            resolve(all.result as Record<string, unknown>[])
            db.close()
          }
        }
        request.onerror = () => resolve([])
      }),
    store,
  )
}

/** The mirrored tags (kept in buckets, see src/offline/tag-store.ts): code and organization of each. */
export async function storedTags(page: Page): Promise<{ code: string; organizationId: string }[]> {
  const buckets = (await storedRows(page, 'tagBuckets')) as { organizationId: string; tags: string[][] }[]
  return buckets.flatMap((bucket) =>
    bucket.tags.map((packed) => ({ code: packed[2]!, organizationId: bucket.organizationId })),
  )
}
