import { useEffect } from 'react'

const SUFFIX = 'Trousseau'

/** The tab's title for a page: its own name (`data-document-title`, else its first `h1`), then the product's. */
export function titleOf(root: ParentNode): string {
  const named = root.querySelector('[data-document-title]')?.getAttribute('data-document-title')?.trim()
  const heading = named || root.querySelector('h1')?.textContent?.replace(/\s+/g, ' ').trim()
  return heading && heading !== SUFFIX ? `${heading} · ${SUFFIX}` : SUFFIX
}

/**
 * Keeps `document.title` on the page's own name, in its language, as screens render: every screen names
 * itself through its heading, so no screen has to remember to set the title.
 */
export function useHeadingTitle(): void {
  useEffect(() => {
    const root = document.getElementById('root') ?? document.body
    const update = () => {
      const title = titleOf(root)
      if (document.title !== title) document.title = title
    }
    update()
    const observer = new MutationObserver(update)
    observer.observe(root, { childList: true, subtree: true, characterData: true })
    return () => observer.disconnect()
  }, [])
}
