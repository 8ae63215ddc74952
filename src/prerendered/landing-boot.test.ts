import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { LOCALE_COOKIE } from '../../contract/locale.ts'
import { readLocaleCookie } from '../lib/locale.ts'
import { markSignedIn } from '../lib/signed-in-mark.ts'
import { bootLanding } from './landing-boot.ts'

/** The landing page's markup as the prerender writes it (the parts its script reads). */
function landingPage(locale: 'fr' | 'en') {
  const other = locale === 'fr' ? 'en' : 'fr'
  document.body.innerHTML = `<div id="root" data-page="landing" data-locale="${locale}">
    <a href="${other === 'en' ? '/en/' : '/'}" hreflang="${other}">${other}</a>
    <a href="${locale === 'en' ? '/en/sign-in' : '/sign-in'}">Sign in</a></div>`
}

function clearLocaleCookie() {
  // biome-ignore lint/suspicious/noDocumentCookie: resetting jsdom's cookie between tests
  document.cookie = `${LOCALE_COOKIE}=; Max-Age=0; Path=/`
}

beforeEach(() => {
  clearLocaleCookie()
  history.replaceState(null, '', '/')
})

afterEach(() => {
  markSignedIn(false)
  clearLocaleCookie()
  history.replaceState(null, '', '/')
  document.body.innerHTML = ''
})

describe('the static landing page’s script', () => {
  it('remembers the page’s language, and the one its language link switches to', () => {
    landingPage('fr')
    const go = vi.fn()
    bootLanding(go)
    expect(readLocaleCookie()).toBe('fr')
    document.querySelector<HTMLAnchorElement>('a[hreflang="en"]')?.addEventListener('click', (event) => {
      event.preventDefault()
    })
    document.querySelector<HTMLAnchorElement>('a[hreflang="en"]')?.click()
    expect(readLocaleCookie()).toBe('en')
    expect(go).not.toHaveBeenCalled()
  })

  it('shows the English address when the server answered the English page on the French one', () => {
    history.replaceState(null, '', '/?from=mail#top')
    landingPage('en')
    bootLanding(vi.fn())
    expect(`${location.pathname}${location.search}${location.hash}`).toBe('/en/?from=mail#top')
    expect(readLocaleCookie()).toBe('en')
  })

  it('sends a device where an account is signed in into the app, in the page’s language', () => {
    markSignedIn(true)
    landingPage('en')
    const go = vi.fn()
    bootLanding(go)
    expect(go).toHaveBeenCalledWith('/en/app')
    markSignedIn(false)
    landingPage('fr')
    bootLanding(go)
    expect(go).toHaveBeenCalledTimes(1)
  })

  it('does nothing on a page that was not prerendered', () => {
    document.body.innerHTML = '<div id="root"></div>'
    const go = vi.fn()
    bootLanding(go)
    expect(go).not.toHaveBeenCalled()
    expect(readLocaleCookie()).toBeNull()
  })
})
