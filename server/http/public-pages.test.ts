import { describe, expect, it } from 'vitest'
import { prerenderedPageFor } from './public-pages.ts'

const none = new URLSearchParams()

describe('prerendered public pages', () => {
  it('answers the landing and sign-in pages in both languages, with or without a trailing slash', () => {
    expect(prerenderedPageFor('/', none)).toBe('pages/fr/index.html')
    expect(prerenderedPageFor('/en', none)).toBe('pages/en/index.html')
    expect(prerenderedPageFor('/en/', none)).toBe('pages/en/index.html')
    expect(prerenderedPageFor('/sign-in', none)).toBe('pages/fr/sign-in.html')
    expect(prerenderedPageFor('/en/sign-in/', none)).toBe('pages/en/sign-in.html')
    expect(prerenderedPageFor('/sign-in', new URLSearchParams('redirect=/app/scan'))).toBe(
      'pages/fr/sign-in.html',
    )
  })

  it('leaves every other page, and a sign-in link, to the SPA', () => {
    expect(prerenderedPageFor('/app', none)).toBeNull()
    expect(prerenderedPageFor('/en/app/scan', none)).toBeNull()
    expect(prerenderedPageFor('/tags/ABC', none)).toBeNull()
    expect(prerenderedPageFor('/de', none)).toBeNull()
    expect(prerenderedPageFor('/', new URLSearchParams('token=abc'))).toBeNull()
    expect(prerenderedPageFor('/en/sign-in', new URLSearchParams('token=abc'))).toBeNull()
  })

  it('answers the English page on a French address when the locale cookie says English', () => {
    expect(prerenderedPageFor('/', none, { cookie: 'a=1; locale=en' })).toBe('pages/en/index.html')
    expect(prerenderedPageFor('/sign-in', none, { cookie: 'locale=en' })).toBe('pages/en/sign-in.html')
    expect(prerenderedPageFor('/', none, { cookie: 'locale=fr' })).toBe('pages/fr/index.html')
    expect(prerenderedPageFor('/', none, { cookie: 'xlocale=en' })).toBe('pages/fr/index.html')
    // The language switch of the site itself, followed before (or without) the script that writes the cookie.
    expect(prerenderedPageFor('/', none, { cookie: 'locale=en', fetchSite: 'same-origin' })).toBe(
      'pages/fr/index.html',
    )
    expect(prerenderedPageFor('/', none, { cookie: 'locale=en', fetchSite: 'none' })).toBe(
      'pages/en/index.html',
    )
    // An English address stays English whatever the cookie says (the visitor chose it).
    expect(prerenderedPageFor('/en', none, { cookie: 'locale=fr' })).toBe('pages/en/index.html')
  })
})
