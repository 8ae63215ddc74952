import type { Locale } from '../../contract/locale.ts'

const intlLocale: Record<Locale, string> = { fr: 'fr-FR', en: 'en-GB' }

export function formatDateTime(value: Date | string, locale: Locale): string {
  return new Intl.DateTimeFormat(intlLocale[locale], { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(value),
  )
}

/** A day; `timeZone` reads it on an organization's calendar rather than the device's. */
export function formatDate(value: Date | string, locale: Locale, timeZone?: string): string {
  return new Intl.DateTimeFormat(intlLocale[locale], {
    dateStyle: 'medium',
    ...(timeZone ? { timeZone } : {}),
  }).format(new Date(value))
}

export function formatMoney(cents: number, locale: Locale, currency = 'EUR'): string {
  return new Intl.NumberFormat(intlLocale[locale], { style: 'currency', currency }).format(cents / 100)
}

export function formatNumber(value: number, locale: Locale): string {
  return new Intl.NumberFormat(intlLocale[locale]).format(value)
}

/** A calendar day (`YYYY-MM-DD`) as written, whatever the device's time zone. */
export function formatCalendarDate(day: string, locale: Locale): string {
  return new Intl.DateTimeFormat(intlLocale[locale], { dateStyle: 'medium', timeZone: 'UTC' }).format(
    new Date(`${day}T00:00:00Z`),
  )
}

/** Two calendar days as one range ("3–5 déc. 2026"). */
export function formatCalendarRange(from: string, to: string, locale: Locale): string {
  return new Intl.DateTimeFormat(intlLocale[locale], { dateStyle: 'medium', timeZone: 'UTC' }).formatRange(
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
  return new Intl.NumberFormat(intlLocale[locale], { style: 'percent', maximumFractionDigits: 0 }).format(
    ratio,
  )
}
