import type { Locale } from '../../../contract/locale.ts'

/** Countries offered first; any ISO 3166-1 code is accepted by the server. */
const COUNTRY_CODES = [
  'FR',
  'BE',
  'CH',
  'LU',
  'MC',
  'DE',
  'ES',
  'IT',
  'NL',
  'PT',
  'GB',
  'IE',
  'AT',
  'DK',
  'SE',
  'NO',
  'FI',
  'PL',
  'CZ',
  'GR',
  'CA',
  'US',
  'MA',
  'TN',
  'DZ',
  'SN',
  'CI',
] as const

/** Country options named in the reader's language, sorted by that name. */
export function countryOptions(locale: Locale): Array<{ value: string; label: string }> {
  const names = new Intl.DisplayNames([locale], { type: 'region' })
  return COUNTRY_CODES.map((code) => ({ value: code, label: names.of(code) ?? code })).sort((a, b) =>
    a.label.localeCompare(b.label, locale),
  )
}

export function countryName(code: string, locale: Locale): string {
  return new Intl.DisplayNames([locale], { type: 'region' }).of(code) ?? code
}
