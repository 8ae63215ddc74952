// Build time only (scripts/prerender.ts): the public pages as HTML, in each language.
import { i18n, type Messages } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { renderToStaticMarkup, renderToString } from 'react-dom/server'
import type { Locale } from '../../contract/locale.ts'
import type { PublicPageName } from '../../contract/public-pages.ts'
import { messages as en } from '../../locales/en/public.po'
import { messages as fr } from '../../locales/fr/public.po'
import { PublicLanding } from './landing.tsx'
import { PublicSignIn } from './sign-in.tsx'

const catalogs: Record<Locale, Messages> = { fr, en }

export type RenderedPage = { html: string; title: string; description: string; noscript: string | null }

export function renderPublicPage(page: PublicPageName, locale: Locale): RenderedPage {
  i18n.loadAndActivate({ locale, messages: catalogs[locale] })
  // The landing page is never hydrated: plain HTML. The sign-in page is, from this very markup.
  const html =
    page === 'landing'
      ? renderToStaticMarkup(<PublicLanding i18n={i18n} locale={locale} />)
      : renderToString(<PublicSignIn i18n={i18n} locale={locale} onSignedIn={() => {}} />)
  return {
    html,
    title:
      page === 'landing'
        ? i18n._(msg`Trousseau: know where every key is`)
        : `${i18n._(msg`Sign in`)} · Trousseau`,
    description: i18n._(msg`Trousseau: keychains, keys, QR tags and transfers for organizations.`),
    noscript: page === 'sign-in' ? i18n._(msg`Signing in needs JavaScript: please turn it on.`) : null,
  }
}
