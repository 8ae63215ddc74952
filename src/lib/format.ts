import type { Locale } from '../../contract/locale.ts'

const intlLocale: Record<Locale, string> = { fr: 'fr-FR', en: 'en-GB' }

export function formatDateTime(value: Date | string, locale: Locale): string {
  return new Intl.DateTimeFormat(intlLocale[locale], { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(value),
  )
}

export function formatDate(value: Date | string, locale: Locale): string {
  return new Intl.DateTimeFormat(intlLocale[locale], { dateStyle: 'medium' }).format(new Date(value))
}

export function formatMoney(cents: number, locale: Locale, currency = 'EUR'): string {
  return new Intl.NumberFormat(intlLocale[locale], { style: 'currency', currency }).format(cents / 100)
}

export function formatNumber(value: number, locale: Locale): string {
  return new Intl.NumberFormat(intlLocale[locale]).format(value)
}
