import type { Locale } from '../../contract/locale.ts'

/** `/app/profile` in French, `/en/app/profile` in English. */
export function localizedHref(locale: Locale, path: string): string {
  if (locale === 'fr') return path
  return path === '/' ? '/en/' : `/en${path}`
}

/** A post-sign-in destination is kept only when it is a signed-in page of this site (the app or tags). */
export function safeRedirect(target: unknown): string | null {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused
  if (typeof target !== 'string' || /[\u0000-\u0020\\]/.test(target)) return null
  return /^\/(en\/)?(app|tags)(?:[/?#]|$)/.test(target) ? target : null
}
