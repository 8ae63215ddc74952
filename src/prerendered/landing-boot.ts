// The whole script of the static landing page (no framework: scripts/prerender.ts bundles this file alone into
// a small classic script). What the page needs of JavaScript and nothing more: the page's own address and
// language remembered, the language link's choice remembered, a signed-in visitor sent into the app, and the
// service worker registered once the page is idle.
import { isLocale, type Locale } from '../../contract/locale.ts'
import { localeOfPath, readLocaleCookie, writeLocaleCookie } from '../lib/locale.ts'
import { localizedHref } from '../lib/paths.ts'
import { isMarkedSignedIn } from '../lib/signed-in-mark.ts'
import { registerServiceWorkerWhenIdle } from '../pwa/register-when-idle.ts'

/** Runs the landing page's script against the page as it is; `go` leaves the page (the tests watch it). */
export function bootLanding(go: (href: string) => void = (href) => location.replace(href)): void {
  const locale = document.getElementById('root')?.dataset.locale
  if (!isLocale(locale)) return
  // A device where an account is signed in goes to the app at once: the landing page is for visitors.
  if (isMarkedSignedIn()) {
    go(localizedHref(locale, '/app'))
    return
  }
  showPageAddress(locale)
  if (readLocaleCookie() !== locale) writeLocaleCookie(locale)
  for (const link of document.querySelectorAll<HTMLAnchorElement>('a[hreflang]'))
    link.addEventListener('click', () => {
      const target = link.hreflang
      if (isLocale(target)) writeLocaleCookie(target)
    })
  registerServiceWorkerWhenIdle()
}

/** The server answers the English page on a French address when the locale cookie says so: show its address. */
function showPageAddress(locale: Locale): void {
  if (localeOfPath(location.pathname) === locale) return
  history.replaceState(history.state, '', `${localizedHref(locale, '/')}${location.search}${location.hash}`)
}
