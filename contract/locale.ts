export const LOCALES = ['fr', 'en'] as const
export const DEFAULT_LOCALE = 'fr'
export type Locale = (typeof LOCALES)[number]
export const LOCALE_COOKIE = 'locale'
export const LOCALE_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value)
}
