import { i18n, type Messages } from '@lingui/core'
import type { Locale } from '../../contract/locale.ts'
import { MANIFEST_HREF, readLocaleCookie, writeLocaleCookie } from './locale.ts'

type Catalog = () => Promise<{ messages: Messages }>

/** The prerendered public pages' small catalog, and the rest of the app's: each its own chunk. */
const publicCatalogs: Record<Locale, Catalog> = {
  fr: () => import('../../locales/fr/public.po'),
  en: () => import('../../locales/en/public.po'),
}
const appCatalogs: Record<Locale, Catalog> = {
  fr: () => import('../../locales/fr/messages.po'),
  en: () => import('../../locales/en/messages.po'),
}

let loaded: { locale: Locale; app: boolean } | null = null

/**
 * Loads the catalogs of a locale and makes it the active one; `<html lang>` follows. The public pages ask for
 * their own catalog only (`app: false`); the SPA for both.
 */
export async function activateLocale(locale: Locale, { app = true } = {}): Promise<void> {
  if (loaded?.locale !== locale || (app && !loaded.app)) {
    const parts = await Promise.all([publicCatalogs[locale](), ...(app ? [appCatalogs[locale]()] : [])])
    i18n.loadAndActivate({ locale, messages: Object.assign({}, ...parts.map((part) => part.messages)) })
    loaded = { locale, app }
  }
  document.documentElement.lang = locale
  // The page's language is the visitor's: installing the app or opening `/app` later keeps it.
  document.querySelector('link[rel="manifest"]')?.setAttribute('href', MANIFEST_HREF[locale])
  if (readLocaleCookie() !== locale) writeLocaleCookie(locale)
}

export { i18n }
