import {
  DEFAULT_LOCALE,
  LOCALE_COOKIE,
  LOCALE_COOKIE_MAX_AGE_S,
  type Locale,
  localeOfCookies,
} from '../../contract/locale.ts'

/** The locale of a path: English under `/en`, French (the default) everywhere else. */
export function localeOfPath(pathname: string): Locale {
  return pathname === '/en' || pathname.startsWith('/en/') ? 'en' : DEFAULT_LOCALE
}

/** The same page in another locale: `/app/profile` ⇄ `/en/app/profile`. */
export function swapLocaleInPath(pathname: string, target: Locale): string {
  const bare = localeOfPath(pathname) === 'en' ? pathname.slice(3) || '/' : pathname
  if (target === DEFAULT_LOCALE) return bare
  return bare === '/' ? `/${target}/` : `/${target}${bare}`
}

/** Where each language's web app manifest is served; pages link the one of their language. */
export const MANIFEST_HREF: Record<Locale, string> = {
  fr: '/manifest.webmanifest',
  en: '/manifest.en.webmanifest',
}

export function readLocaleCookie(cookie = document.cookie): Locale | null {
  return localeOfCookies(cookie)
}

export function writeLocaleCookie(locale: Locale): void {
  const secure = location.protocol === 'https:' ? '; Secure' : ''
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is not in every browser we serve
  document.cookie = `${LOCALE_COOKIE}=${locale}; Max-Age=${LOCALE_COOKIE_MAX_AGE_S}; Path=/; SameSite=Lax${secure}`
}
