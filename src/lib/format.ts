import type { Locale } from '../../contract/locale.ts'

const intlLocale: Record<Locale, string> = { fr: 'fr-FR', en: 'en-GB' }

// Building an Intl formatter costs far more than formatting with it (a list of 50 rows built 50): each one is
// built once per locale and options, and kept (a handful in all: the options below, and each time zone used).
const formats = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>()

function kept<T extends Intl.DateTimeFormat | Intl.NumberFormat>(key: string, make: () => T): T {
  const found = formats.get(key)
  if (found) return found as T
  const made = make()
  formats.set(key, made)
  return made
}

const dateFormat = (locale: Locale, options: Intl.DateTimeFormatOptions) =>
  kept(
    `date ${locale} ${JSON.stringify(options)}`,
    () => new Intl.DateTimeFormat(intlLocale[locale], options),
  )

const numberFormat = (locale: Locale, options: Intl.NumberFormatOptions = {}) =>
  kept(
    `number ${locale} ${JSON.stringify(options)}`,
    () => new Intl.NumberFormat(intlLocale[locale], options),
  )

/**
 * Builds the date formatters a first screen uses, with the device's time zone (most organizations' own), each
 * in a task of its own while the boot waits for the network: the first one costs the most (the locale's and the
 * zone's data are read then), and two short tasks block input less than one long one, or than the first list's
 * render paying for them.
 */
export function warmDateFormats(locale: Locale): void {
  setTimeout(() => {
    const timeZone = new Intl.DateTimeFormat().resolvedOptions().timeZone
    dateFormat(locale, { dateStyle: 'medium', timeZone })
  }, 0)
  setTimeout(() => dateFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }), 0)
}

export function formatDateTime(value: Date | string, locale: Locale): string {
  return dateFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(value))
}

/** A day; `timeZone` reads it on an organization's calendar rather than the device's. */
export function formatDate(value: Date | string, locale: Locale, timeZone?: string): string {
  return dateFormat(locale, { dateStyle: 'medium', ...(timeZone ? { timeZone } : {}) }).format(
    new Date(value),
  )
}

export function formatMoney(cents: number, locale: Locale, currency = 'EUR'): string {
  return numberFormat(locale, { style: 'currency', currency }).format(cents / 100)
}

export function formatNumber(value: number, locale: Locale): string {
  // Small whole numbers (most counts) read the same in every locale: no formatter to build on a first load.
  if (Number.isInteger(value) && value >= 0 && value < 1000) return String(value)
  return numberFormat(locale).format(value)
}

/** A calendar day (`YYYY-MM-DD`) as written, whatever the device's time zone. */
export function formatCalendarDate(day: string, locale: Locale): string {
  return dateFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`))
}

/** Two calendar days as one range ("3–5 déc. 2026"). */
export function formatCalendarRange(from: string, to: string, locale: Locale): string {
  return dateFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).formatRange(
    new Date(`${from}T00:00:00Z`),
    new Date(`${to}T00:00:00Z`),
  )
}

/** The `Intl` locale tag of an app locale, for components that format on their own (date pickers). */
export function intlLocaleOf(locale: Locale): string {
  return intlLocale[locale]
}

/** `0.42` → `42 %` (fr) / `42%` (en). */
export function formatPercent(ratio: number, locale: Locale): string {
  return numberFormat(locale, { style: 'percent', maximumFractionDigits: 0 }).format(ratio)
}
