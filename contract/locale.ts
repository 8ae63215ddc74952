export const LOCALES = ['fr', 'en'] as const
export const DEFAULT_LOCALE = 'fr'
export type Locale = (typeof LOCALES)[number]
export const LOCALE_COOKIE = 'locale'
export const LOCALE_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value)
}

/** The locale a `Cookie` header (or `document.cookie`) remembers, if any. */
export function localeOfCookies(cookies: string | null | undefined): Locale | null {
  const value = cookies?.match(new RegExp(`(?:^|;\\s*)${LOCALE_COOKIE}=([^;]+)`))?.[1]
  return isLocale(value) ? value : null
}
