import { type RefObject, useEffect, useRef, useState } from 'react'

/**
 * Moves the focus to the result's heading (or its alert) once shown, unless a field of the sheet took it (the
 * pairing's name field). Rendered inside the result's Suspense boundary and keyed per scan; what loads lazily
 * may show after its effect, so it waits for the heading to be added.
 */
export function FocusResult({ sheet }: { sheet: RefObject<HTMLElement | null> }) {
  useEffect(() => {
    const node = sheet.current
    if (!node) return
    const settle = () => {
      const active = document.activeElement
      if (node.contains(active) && isEditable(active)) return true
      const target = node.querySelector<HTMLElement>('h2, [role="alert"]')
      if (!target) return false
      if (!target.hasAttribute('tabindex')) target.tabIndex = -1
      target.focus()
      return true
    }
    if (settle()) return
    const observer = new MutationObserver(() => {
      if (settle()) observer.disconnect()
    })
    observer.observe(node, { childList: true, subtree: true })
    return () => observer.disconnect()
  }, [sheet])
  return null
}

const isEditable = (element: Element | null) =>
  element instanceof HTMLElement &&
  (element.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(element.tagName))

/**
 * The scan result sheet's height (the page keeps that much room below, to scroll what it covers into view), and,
 * while it is shown, a key typed outside a field goes to the scan field: a hardware scanner types the next code
 * wherever the focus is.
 */
export function useResultSheet(open: boolean) {
  const sheet = useRef<HTMLElement>(null)
  const [height, setHeight] = useState(0)

  useEffect(() => {
    const node = sheet.current
    if (!open || !node) return
    // (Every browser has it; the unit tests' DOM has not.)
    const observer =
      'ResizeObserver' in window ? new ResizeObserver(() => setHeight(node.offsetHeight)) : null
    observer?.observe(node)
    const onKey = (event: KeyboardEvent) => {
      if (event.key.length !== 1 || event.key === ' ' || event.ctrlKey || event.metaKey || event.altKey)
        return
      if (isEditable(document.activeElement)) return
      document.getElementById('scan-value')?.focus()
    }
    document.addEventListener('keydown', onKey)
    return () => {
      observer?.disconnect()
      document.removeEventListener('keydown', onKey)
    }
  }, [open])

  return { sheet, height }
}
