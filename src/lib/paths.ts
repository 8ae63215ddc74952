import type { Locale } from '../../contract/locale.ts'

/** `/app/profile` in French, `/en/app/profile` in English. */
export function localizedHref(locale: Locale, path: string): string {
  if (locale === 'fr') return path
  return path === '/' ? '/en/' : `/en${path}`
}

/** A post-sign-in destination is kept only when it is a path of this site. */
export function safeRedirect(target: unknown): string | null {
  if (
    typeof target !== 'string' ||
    !target.startsWith('/') ||
    target.startsWith('//') ||
    target.includes('\\')
  ) {
    return null
  }
  return target
}
