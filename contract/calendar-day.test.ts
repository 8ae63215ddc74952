import { describe, expect, it } from 'vitest'
import { calendarDayIn } from './calendar-day.ts'
import { shiftCalendarDay } from './transfers.ts'

describe('calendar days', () => {
  it.each([
    // 23:30 UTC on 31 December is already 1 January in Paris, still 31 December in New York.
    ['Europe/Paris', '2026-12-31T23:30:00Z', '2027-01-01'],
    ['America/New_York', '2026-12-31T23:30:00Z', '2026-12-31'],
    ['America/New_York', '2027-01-01T04:59:00Z', '2026-12-31'],
    ['America/New_York', '2027-01-01T05:00:00Z', '2027-01-01'],
    ['Pacific/Auckland', '2026-02-28T11:00:00Z', '2026-03-01'],
    ['UTC', '2028-02-29T00:00:00Z', '2028-02-29'],
  ])('in %s, %s falls on %s', (timeZone, at, day) => {
    expect(calendarDayIn(timeZone, new Date(at))).toBe(day)
  })

  it.each([
    ['2026-02-28', 1, '2026-03-01'],
    ['2028-02-28', 1, '2028-02-29'],
    ['2026-01-01', -1, '2025-12-31'],
    ['2026-03-29', 1, '2026-03-30'],
  ])('%s shifted by %i is %s', (day, days, shifted) => {
    expect(shiftCalendarDay(day, days)).toBe(shifted)
  })
})
