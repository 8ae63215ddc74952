import { createAsyncStoragePersister } from '@tanstack/query-async-storage-persister'
import type { PersistedClient, Persister } from '@tanstack/react-query-persist-client'

export interface FlushablePersister extends Persister {
  /** Writes the latest state now, if the library has not yet (the page is going away, or goes to the background). */
  flush(): void
}

/**
 * TanStack's storage persister (`@tanstack/query-async-storage-persister`, the maintained successor of the
 * deprecated sync one; it takes `localStorage` as it is), which writes at most once per `throttleMs`, with two
 * things on top: `flush` writes the latest state at once, synchronously (a page reloaded, or an app killed in
 * the background, right after signing in keeps its session for offline use); and once the client is removed
 * (sign-out), a write the library still had pending is dropped, so nothing of the account that left comes back.
 */
export function createFlushablePersister({
  storage,
  key,
  throttleMs = 1000,
}: {
  storage: Storage
  key: string
  throttleMs?: number
}): FlushablePersister {
  /** The latest state the library was given and has not written yet. */
  let pending: PersistedClient | undefined
  let removed = false
  const write = (value: string) => {
    try {
      storage.setItem(key, value)
    } catch (error) {
      // A full storage keeps the previous copy; the app still works online and from the device's mirror.
      console.warn('Persisting the query cache failed', error)
    }
  }
  const library = createAsyncStoragePersister({
    key,
    throttleTime: throttleMs,
    storage: {
      getItem: (name) => storage.getItem(name),
      setItem: (_, value) => {
        if (removed) return
        pending = undefined
        write(value)
      },
      removeItem: (name) => storage.removeItem(name),
    },
  })
  return {
    persistClient(client) {
      pending = client
      removed = false
      return library.persistClient(client)
    },
    restoreClient: library.restoreClient,
    removeClient() {
      pending = undefined
      removed = true
      return library.removeClient()
    },
    flush() {
      if (!pending) return
      const client = pending
      pending = undefined
      write(JSON.stringify(client))
    },
  }
}
