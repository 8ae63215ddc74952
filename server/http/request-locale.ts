import type { Context } from 'hono'
import { isLocale, type Locale } from '../../contract/locale.ts'

/**
 * The language a request asks for: the first choice of its `Accept-Language` when it is one the product speaks
 * (`en`, `en-GB`, `fr-FR`…), else null. The app sends the language of the page it shows.
 */
export function requestedLocale(header: string | undefined): Locale | null {
  const first = header?.split(',')[0]?.split(';')[0]?.trim().toLowerCase()
  const language = first?.split('-')[0]
  return isLocale(language) ? language : null
}

/**
 * The caller as the request speaks: messages meant for the person reading the page (refusals, allowance
 * errors) follow the page's language, not the one stored with the account (which mails keep using).
 */
export function inRequestLanguage<U extends { locale: Locale }>(c: Context, user: U): U {
  const locale = requestedLocale(c.req.header('accept-language'))
  return locale && locale !== user.locale ? { ...user, locale } : user
}
