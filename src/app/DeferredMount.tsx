import { type ReactNode, useDeferredValue } from 'react'

/**
 * Renders `children` from the render after its own first one: a background render React slices and interrupts for
 * input. For a subtree that a blocking update mounts: the router mounts a page from its own store, outside React's
 * transitions, and the shell with the page's screen was one long task on a phone.
 */
export function DeferredMount({ children }: { children: ReactNode }) {
  return useDeferredValue(true, false) ? children : null
}
