import { describe, expect, it } from 'vitest'
import { endDatePresets, endOfMonth } from './EndDatePresets.tsx'

describe('end-date presets', () => {
  it('knows the last day of every month, leap years included', () => {
    expect(endOfMonth('2026-01-15')).toBe('2026-01-31')
    expect(endOfMonth('2026-02-01')).toBe('2026-02-28')
    expect(endOfMonth('2028-02-10')).toBe('2028-02-29')
    expect(endOfMonth('2026-04-30')).toBe('2026-04-30')
    expect(endOfMonth('2026-12-31')).toBe('2026-12-31')
  })

  it('offers tomorrow, a week after the first day and the end of its month, when they come after it', () => {
    expect(endDatePresets('2026-11-10', '2026-11-10')).toEqual([
      { id: 'tomorrow', day: '2026-11-11' },
      { id: 'week', day: '2026-11-17' },
      { id: 'month', day: '2026-11-30' },
    ])
    // A later first day: tomorrow is before it, so only the others.
    expect(endDatePresets('2026-11-10', '2026-11-20')).toEqual([
      { id: 'week', day: '2026-11-27' },
      { id: 'month', day: '2026-11-30' },
    ])
    // Starting on the month's last day: its end is no later day; the week runs into the next year.
    expect(endDatePresets('2026-12-31', '2026-12-31')).toEqual([
      { id: 'tomorrow', day: '2027-01-01' },
      { id: 'week', day: '2027-01-07' },
    ])
    // The same day twice shows once (the week ends on the month's last day).
    expect(endDatePresets('2026-11-23', '2026-11-23')).toEqual([
      { id: 'tomorrow', day: '2026-11-24' },
      { id: 'week', day: '2026-11-30' },
    ])
  })

  it('reads from today while the first day is not chosen', () => {
    expect(endDatePresets('2026-11-10', '')[0]).toEqual({ id: 'tomorrow', day: '2026-11-11' })
  })
})
