import '../styles.css'
import type { ReactNode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { isLocale, type Locale } from '../../contract/locale.ts'
import type { PublicPageName } from '../../contract/public-pages.ts'
import { activateLocale, i18n } from '../lib/i18n.ts'
import { localeOfPath } from '../lib/locale.ts'
import { localizedHref, safeRedirect } from '../lib/paths.ts'
import { registerServiceWorkerWhenIdle } from '../pwa/register-when-idle.ts'
import { publicPagePath } from './PublicFrame.tsx'

/** Where a signed-in visitor of the sign-in page goes: the page they were sent from, or the app. */
function afterSignIn(locale: Locale): string {
  return safeRedirect(new URLSearchParams(location.search).get('redirect')) ?? localizedHref(locale, '/app')
}

/** The sign-in page (its own chunk, which the prerendered HTML preloads). */
async function pageElement(locale: Locale): Promise<ReactNode> {
  const [{ PublicSignIn }, { fetchProfile }] = await Promise.all([
    import('./sign-in.tsx'),
    import('../api/auth.ts'),
  ])
  // A signed-in visitor has nothing to do here (the SPA's route redirects the same way).
  void fetchProfile()
    .then((profile) => profile && location.replace(afterSignIn(locale)))
    .catch(() => {})
  return <PublicSignIn i18n={i18n} locale={locale} onSignedIn={() => location.replace(afterSignIn(locale))} />
}

async function hydrate() {
  const root = document.getElementById('root')
  const page = root?.dataset.page as PublicPageName | undefined
  const locale = root?.dataset.locale
  // The landing page is static (landing-boot.ts is its script): only the sign-in page hydrates.
  if (!root || page !== 'sign-in' || !isLocale(locale)) throw new Error('This page was not prerendered')
  // The server answers the English page on a French address when the locale cookie says so: show its address.
  if (localeOfPath(location.pathname) !== locale)
    history.replaceState(
      history.state,
      '',
      `${publicPagePath(page, locale)}${location.search}${location.hash}`,
    )
  const [element] = await Promise.all([pageElement(locale), activateLocale(locale, { app: false })])
  hydrateRoot(root, element)
  // From here React answers (or replays) what the visitor does; before it, a click submits the bare HTML form.
  root.dataset.ready = 'true'
}

void hydrate()
// Installable from the sign-in page too (after the page is idle).
registerServiceWorkerWhenIdle()
