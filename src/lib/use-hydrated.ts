import { useSyncExternalStore } from 'react'

const subscribe = () => () => {}

/**
 * False while React hydrates prerendered HTML (and on the build-time render), true once the page answers.
 * A prerendered form keeps its submit button disabled until then: submitted earlier, the browser would send it
 * as a plain GET with the typed values in the address.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  )
}
