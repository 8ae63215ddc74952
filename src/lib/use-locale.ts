import { useLingui } from '@lingui/react'
import { isLocale, type Locale } from '../../contract/locale.ts'
import { type AppPath, localizedHref } from './paths.ts'

/** The active locale (the one Lingui renders in). */
export function useLocale(): Locale {
  const { i18n } = useLingui()
  return isLocale(i18n.locale) ? i18n.locale : 'fr'
}

/** Builds links in the active language: `href('/app/keychains')` → `/en/app/keychains` in English. */
export function useHref(): (path: AppPath) => string {
  const locale = useLocale()
  return (path) => localizedHref(locale, path)
}
