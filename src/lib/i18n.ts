import { i18n, type Messages } from '@lingui/core'
import type { Locale } from '../../contract/locale.ts'

const catalogs: Record<Locale, () => Promise<{ messages: Messages }>> = {
  fr: () => import('../../locales/fr/messages.po'),
  en: () => import('../../locales/en/messages.po'),
}

/** Loads the catalog of a locale (its own chunk) and makes it the active one; `<html lang>` follows. */
export async function activateLocale(locale: Locale): Promise<void> {
  if (i18n.locale !== locale) {
    const { messages } = await catalogs[locale]()
    i18n.loadAndActivate({ locale, messages })
  }
  document.documentElement.lang = locale
}

export { i18n }
