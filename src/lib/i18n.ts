import { i18n, type Messages } from '@lingui/core'
import type { Locale } from '../../contract/locale.ts'
import { addedMessages } from './i18n-messages.ts'
import { MANIFEST_HREF, readLocaleCookie, writeLocaleCookie } from './locale.ts'

type Catalog = () => Promise<{ messages: Messages }>

// The build puts each message's translations into the module that uses it (scripts/vite-inline-messages.ts);
// the dev server loads whole catalogs: the prerendered pages' small one, and the rest of the app's.
const catalogs: Record<'public' | 'app', Record<Locale, Catalog>> | null = import.meta.env.DEV
  ? {
      public: {
        fr: () => import('../../locales/fr/public.po'),
        en: () => import('../../locales/en/public.po'),
      },
      app: {
        fr: () => import('../../locales/fr/messages.po'),
        en: () => import('../../locales/en/messages.po'),
      },
    }
  : null

// A text whose translation no loaded module carried shows as its id: said in the console, where the browser
// tests look for it.
if (!catalogs) i18n.on('missing', ({ id, locale }) => console.error(`Missing translation ${id} (${locale})`))

let loaded: { locale: Locale; app: boolean } | null = null

/**
 * Makes `locale` the active one, with its catalogs on the dev server; `<html lang>` follows. The public pages
 * ask for their own catalog only (`app: false`); the SPA for both.
 */
export async function activateLocale(locale: Locale, { app = true } = {}): Promise<void> {
  if (loaded?.locale !== locale || (app && !loaded.app)) {
    if (catalogs) {
      const parts = await Promise.all([catalogs.public[locale](), ...(app ? [catalogs.app[locale]()] : [])])
      for (const part of parts) Object.assign(addedMessages[locale], part.messages)
    }
    i18n.loadAndActivate({ locale, messages: addedMessages[locale] })
    loaded = { locale, app }
  }
  document.documentElement.lang = locale
  // The page's language is the visitor's: installing the app or opening `/app` later keeps it.
  document.querySelector('link[rel="manifest"]')?.setAttribute('href', MANIFEST_HREF[locale])
  if (readLocaleCookie() !== locale) writeLocaleCookie(locale)
}

export { i18n }
