import { describe, expect, it } from 'vitest'
import { titleOf } from './heading-title.ts'

function page(html: string): HTMLElement {
  const root = document.createElement('div')
  root.innerHTML = html
  return root
}

describe('the tab title', () => {
  it.each([
    ['<main><h1>Trousseaux</h1></main>', 'Trousseaux · Trousseau'],
    ['<main><h1>  Cave\n  du 14 </h1><h1>Other</h1></main>', 'Cave du 14 · Trousseau'],
    [
      '<header data-document-title="Tableau de bord"><h1>Bonjour Claire</h1></header>',
      'Tableau de bord · Trousseau',
    ],
    ['<main><p>Chargement…</p></main>', 'Trousseau'],
    ['<h1>Trousseau</h1>', 'Trousseau'],
  ])('%s → %s', (html, title) => {
    expect(titleOf(page(html))).toBe(title)
  })
})
