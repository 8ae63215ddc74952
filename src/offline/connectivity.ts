import { useSyncExternalStore } from 'react'
import { onServerReach } from '../lib/api.ts'

/** What the app knows of the network: whether the last request reached the server, and when one last did. */
export type Connectivity = { online: boolean; lastReachedAt: string | null }

const LAST_REACHED_KEY = 'trousseau-last-reached'

let state: Connectivity = {
  online: typeof navigator === 'undefined' ? true : navigator.onLine,
  lastReachedAt: typeof localStorage === 'undefined' ? null : localStorage.getItem(LAST_REACHED_KEY),
}
const listeners = new Set<() => void>()

function set(next: Connectivity) {
  if (next.online === state.online && next.lastReachedAt === state.lastReachedAt) return
  state = next
  for (const listener of listeners) listener()
}

/** Every answer says "reached"; the time shown to the person needs refreshing far less often than that. */
const REACHED_PRECISION_MS = 30_000

onServerReach((reached) => {
  if (!reached) return set({ ...state, online: false })
  const last = state.lastReachedAt ? Date.parse(state.lastReachedAt) : 0
  if (state.online && Date.now() - last < REACHED_PRECISION_MS) return
  const now = new Date().toISOString()
  localStorage.setItem(LAST_REACHED_KEY, now)
  set({ online: true, lastReachedAt: now })
})

if (typeof window !== 'undefined') {
  // The browser knows for sure when it has no network at all; "online" is only a hint until a request works.
  window.addEventListener('offline', () => set({ ...state, online: false }))
}

export function connectivity(): Connectivity {
  return state
}

export function subscribeConnectivity(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

export function useConnectivity(): Connectivity {
  return useSyncExternalStore(subscribeConnectivity, connectivity, connectivity)
}
