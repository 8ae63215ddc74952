import { describe, expect, it } from 'vitest'
import {
  formatCalendarDate,
  formatCalendarRange,
  formatDate,
  formatMoney,
  formatNumber,
  formatPercent,
} from './format.ts'

// Narrow no-break spaces and no-break spaces, as Intl writes them, read as plain spaces.
const plain = (text: string) => text.replace(/[\u202f\u00a0]/g, ' ')

describe('formatting for the active locale', () => {
  it('writes money, numbers and shares the French or the English way', () => {
    expect(plain(formatMoney(123456, 'fr'))).toBe('1 234,56 €')
    expect(formatMoney(123456, 'en')).toBe('€1,234.56')
    expect(plain(formatNumber(1234567, 'fr'))).toBe('1 234 567')
    expect(formatNumber(1234567, 'en')).toBe('1,234,567')
    expect(plain(formatPercent(0.42, 'fr'))).toBe('42 %')
    expect(formatPercent(0.42, 'en')).toBe('42%')
  })

  it('writes small counts as Intl does, without building a formatter, and the rest through Intl', () => {
    for (const locale of ['fr', 'en'] as const)
      for (const value of [0, 7, 42, 999, 1000, 1234, -3, 2.5]) {
        const intl = new Intl.NumberFormat(locale === 'fr' ? 'fr-FR' : 'en-GB').format(value)
        expect(formatNumber(value, locale), `${value} in ${locale}`).toBe(intl)
      }
    expect(plain(formatNumber(1000, 'fr'))).toBe('1 000')
    expect(formatNumber(2.5, 'fr')).toBe('2,5')
  })

  it('reads one instant on each calendar it is asked for, the formatters kept apart by zone and locale', () => {
    // 20:00 UTC on 1 March: already 2 March in Auckland, still 1 March in Honolulu.
    expect(formatDate('2026-03-01T20:00:00Z', 'en', 'Pacific/Auckland')).toBe('2 Mar 2026')
    expect(formatDate('2026-03-01T20:00:00Z', 'en', 'Pacific/Honolulu')).toBe('1 Mar 2026')
    expect(formatDate('2026-03-01T20:00:00Z', 'fr', 'Pacific/Auckland')).toBe('2 mars 2026')
  })

  it('writes calendar days as written, whatever the zone', () => {
    expect(formatCalendarDate('2026-12-03', 'fr')).toBe('3 déc. 2026')
    expect(formatCalendarDate('2026-12-03', 'en')).toBe('3 Dec 2026')
    expect(plain(formatCalendarRange('2026-12-03', '2026-12-05', 'fr'))).toMatch(/^3\s?–\s?5 déc\. 2026$/)
  })
})
