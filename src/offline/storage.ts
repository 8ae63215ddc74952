import { useEffect, useState } from 'react'

export type StorageState = { persisted: boolean | null; usage: number | null; quota: number | null }

/**
 * Asks the browser to keep this app's data (the outbox above all) even under storage pressure. Browsers grant
 * it on their own terms (an installed app, a bookmarked site…); the answer is shown in the sync panel.
 */
export async function requestPersistentStorage(): Promise<boolean | null> {
  if (!navigator.storage?.persist) return null
  if (await navigator.storage.persisted()) return true
  return navigator.storage.persist()
}

export function useStorageState(): StorageState {
  const [state, setState] = useState<StorageState>({ persisted: null, usage: null, quota: null })
  useEffect(() => {
    let live = true
    void (async () => {
      const persisted = navigator.storage?.persisted ? await navigator.storage.persisted() : null
      const estimate = navigator.storage?.estimate ? await navigator.storage.estimate() : null
      if (live) setState({ persisted, usage: estimate?.usage ?? null, quota: estimate?.quota ?? null })
    })()
    return () => {
      live = false
    }
  }, [])
  return state
}
