import type { I18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import { type ReactNode, StrictMode } from 'react'
import type { Locale } from '../../contract/locale.ts'
import type { PublicPageName } from '../../contract/public-pages.ts'
import { localizedHref } from '../lib/paths.ts'
import { isPlainClick, LanguageLink } from '../ui/LanguageLink.tsx'
import { LazyToaster } from '../ui/toast/LazyToaster.tsx'

export function publicPagePath(page: PublicPageName, locale: Locale): string {
  return localizedHref(locale, page === 'landing' ? '/' : '/sign-in')
}

/**
 * What the prerendered sign-in page is wrapped in, at build time and when the browser hydrates it: the same
 * tree on both sides. It lives outside the SPA (no router, no query cache); its links are page loads. (The
 * landing page is static, never hydrated: landing.tsx.)
 */
export function PublicFrame({ i18n, children }: { i18n: I18n; children: ReactNode }) {
  return (
    <StrictMode>
      <I18nProvider i18n={i18n}>
        {children}
        <LazyToaster />
      </I18nProvider>
    </StrictMode>
  )
}

/** The link to the same page in the other language, keeping the query string (`?redirect=` on sign-in). */
export function PublicLanguageLink({ page, locale }: { page: PublicPageName; locale: Locale }) {
  const target: Locale = locale === 'fr' ? 'en' : 'fr'
  const href = publicPagePath(page, target)
  return (
    <LanguageLink
      target={target}
      href={href}
      onFollow={(event) => {
        if (!isPlainClick(event) || location.search === '') return
        event.preventDefault()
        location.assign(`${href}${location.search}`)
      }}
    />
  )
}
