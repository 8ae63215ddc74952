import { LOCALE_COOKIE } from '../../contract/locale.ts'
import { PUBLIC_PAGES } from '../../contract/public-pages.ts'

function cookieLocale(cookieHeader: string | undefined): string | null {
  const match = cookieHeader?.match(new RegExp(`(?:^|;\\s*)${LOCALE_COOKIE}=([^;]+)`))
  return match?.[1] ?? null
}

/**
 * The prerendered file of the build that answers a page path, or null when the SPA's shell must (any other
 * page, or a sign-in link's `?token=`, which only the SPA can complete). A French address asked for by a
 * visitor whose locale cookie says English gets the English page (its script then shows the English address),
 * as the SPA would.
 */
export function prerenderedPageFor(
  path: string,
  search: URLSearchParams,
  cookieHeader?: string,
): string | null {
  if (search.has('token')) return null
  const page = PUBLIC_PAGES.find((candidate) => candidate.paths.includes(path))
  if (!page) return null
  if (page.locale === 'fr' && cookieLocale(cookieHeader) === 'en')
    return PUBLIC_PAGES.find((other) => other.page === page.page && other.locale === 'en')?.file ?? page.file
  return page.file
}
