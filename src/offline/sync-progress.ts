import { useSyncExternalStore } from 'react'

/**
 * Where the device's full sync stands (rows received and in all), shown while it runs; null when none runs.
 * Plain module state, no Dexie: the app shell reads it without loading the offline store.
 */
export type SyncProgress = { done: number; total: number } | null

let current: SyncProgress = null
const listeners = new Set<() => void>()

export function reportSyncProgress(progress: SyncProgress): void {
  current = progress
  for (const listener of listeners) listener()
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

export function useSyncProgress(): SyncProgress {
  return useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  )
}
