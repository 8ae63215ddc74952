/**
 * A ref that focuses its element once it is in the page: React's `autoFocus` does this on mount, Preact (the
 * browser build, docs/decisions.md) only writes the `autofocus` attribute, which browsers honour at page load
 * alone. Stable (one function), so re-renders do not move the focus back.
 */
export function focusOnMount(element: HTMLElement | null): void {
  element?.focus()
}
