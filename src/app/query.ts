import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query'
import { persistQueryClient } from '@tanstack/react-query-persist-client'
import { createFlushablePersister, type FlushablePersister } from './query-persister.ts'

const CACHE_KEY = 'trousseau-query-cache'
/** Bump when the shape of cached data changes; a new build alone keeps the cache (offline use). */
const CACHE_BUSTER = 'v1'

/** `onError` sees every failed query and mutation (the app signs out on a 401 there). */
export function createQueryClient(onError: (error: Error) => void = () => undefined): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: {
      queries: {
        gcTime: 24 * 60 * 60 * 1000,
        // The API client already retries idempotent requests once (src/lib/api.ts); no second layer here.
        retry: false,
        refetchOnWindowFocus: true,
        // Run the query function even when the browser says it is offline: field screens then answer from the
        // device's mirror instead of waiting for a network that may not come.
        networkMode: 'offlineFirst',
      },
    },
  })
}

let persister: FlushablePersister | undefined

/** The page's one cache persister, written at the latest when the page is hidden or left. */
function cachePersister(): FlushablePersister {
  if (persister) return persister
  const created = createFlushablePersister({ storage: window.localStorage, key: CACHE_KEY })
  window.addEventListener('pagehide', created.flush)
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') created.flush()
  })
  persister = created
  return created
}

/**
 * Restores the persisted cache (so a reopened app paints at once) and keeps it persisted; a reload right after
 * signing in still finds the session offline.
 */
export async function persistCache(queryClient: QueryClient): Promise<void> {
  const [, restored] = persistQueryClient({
    queryClient,
    persister: cachePersister(),
    maxAge: 7 * 24 * 60 * 60 * 1000,
    buster: CACHE_BUSTER,
    // Keep the last good answer even when a later refetch failed (offline): that is what the field needs.
    dehydrateOptions: { shouldDehydrateQuery: (query) => query.state.data !== undefined },
  })
  await restored
}

/** Sign-out: forget every cached answer, in memory and on disk. */
export function clearClientData(queryClient: QueryClient): void {
  queryClient.clear()
  // A pending write is dropped too: nothing is written for the account that left.
  cachePersister().removeClient()
}
