import type { Locale } from '../../contract/locale.ts'
import type { Address } from '../../contract/organizations.ts'

/** The Intl locale each language formats with (English dates read "3 December 2026"). */
const INTL_LOCALES: Record<Locale, string> = { fr: 'fr-FR', en: 'en-GB' }

const dayFormats = new Map<string, Intl.DateTimeFormat>()

function dayFormat(locale: Locale, timeZone: string): Intl.DateTimeFormat {
  const cacheKey = `${locale} ${timeZone}`
  let format = dayFormats.get(cacheKey)
  if (!format) {
    format = new Intl.DateTimeFormat(INTL_LOCALES[locale], { dateStyle: 'long', timeZone })
    dayFormats.set(cacheKey, format)
  }
  return format
}

/** A calendar day (`YYYY-MM-DD`) in words: "3 décembre 2026", "3 December 2026". */
export function formatCalendarDay(locale: Locale, day: string): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number]
  return dayFormat(locale, 'UTC').format(new Date(Date.UTC(year, month - 1, date)))
}

/** The day an instant falls on in the time zone, in words. */
export function formatDayIn(locale: Locale, instant: Date, timeZone: string): string {
  return dayFormat(locale, timeZone).format(instant)
}

/** A postal address on several lines, the country named in the reader's language. */
export function formatAddress(locale: Locale, address: Address): string {
  let country = address.country
  try {
    country = new Intl.DisplayNames([INTL_LOCALES[locale]], { type: 'region' }).of(address.country) ?? country
  } catch {
    // Not a region code Intl knows: the code itself.
  }
  return [address.line1, address.line2, `${address.postalCode} ${address.city}`, country]
    .filter((line) => line.trim() !== '')
    .join('\n')
}
