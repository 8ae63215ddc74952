import { localeOfCookies } from '../../contract/locale.ts'
import { PUBLIC_PAGES } from '../../contract/public-pages.ts'

/**
 * The prerendered file of the build that answers a page path, or null when the SPA's shell must (any other
 * page, or a sign-in link's `?token=`, which only the SPA can complete). A French address asked for by a
 * visitor whose locale cookie says English gets the English page (its script then shows the English address),
 * as the SPA would; not when the visitor followed a link of the site (`Sec-Fetch-Site: same-origin`): that
 * is the language switch, chosen even before the page's script could write the cookie, or without script.
 */
export function prerenderedPageFor(
  path: string,
  search: URLSearchParams,
  headers: { cookie?: string | undefined; fetchSite?: string | undefined } = {},
): string | null {
  if (search.has('token')) return null
  const page = PUBLIC_PAGES.find((candidate) => candidate.paths.includes(path))
  if (!page) return null
  if (page.locale === 'fr' && headers.fetchSite !== 'same-origin' && localeOfCookies(headers.cookie) === 'en')
    return PUBLIC_PAGES.find((other) => other.page === page.page && other.locale === 'en')?.file ?? page.file
  return page.file
}
