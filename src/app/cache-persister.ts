import type { PersistedClient, Persister } from '@tanstack/react-query-persist-client'

export interface FlushablePersister extends Persister {
  /** Writes the latest pending state now (the page is going away, or the app is sent to the background). */
  flush(): void
}

/**
 * Keeps the query cache in a synchronous storage, at most once per `throttleMs`, and can write the pending
 * state at once. TanStack's own storage persisters only throttle: a page reloaded (or an app killed in the
 * background) within a second of signing in kept no session, and the app then opened on sign-in offline.
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
  let pending: PersistedClient | undefined
  let timer: ReturnType<typeof setTimeout> | undefined

  const cancel = () => {
    clearTimeout(timer)
    timer = undefined
    pending = undefined
  }
  const flush = () => {
    const client = pending
    cancel()
    if (!client) return
    try {
      storage.setItem(key, JSON.stringify(client))
    } catch (error) {
      // A full storage keeps the previous copy; the app still works online and from the device's mirror.
      console.warn('Persisting the query cache failed', error)
    }
  }

  return {
    persistClient(client) {
      pending = client
      timer ??= setTimeout(flush, throttleMs)
    },
    restoreClient() {
      const stored = storage.getItem(key)
      return stored ? (JSON.parse(stored) as PersistedClient) : undefined
    },
    removeClient() {
      cancel()
      storage.removeItem(key)
    },
    flush,
  }
}
