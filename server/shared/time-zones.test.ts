import { describe, expect, it } from 'vitest'
import {
  addMonths,
  addMonthsIn,
  calendarDayIn,
  monthBoundsIn,
  startOfDayIn,
  zonedTime,
} from './time-zones.ts'

/** Calendar arithmetic in organizations' time zones, Paris and elsewhere (whole hours, half hours, south). */

const iso = (date: Date) => date.toISOString()

describe('the calendar month holding an instant', () => {
  it.each([
    ['Europe/Paris', '2030-01-15T09:00:00Z', '2029-12-31T23:00:00.000Z', '2030-01-31T23:00:00.000Z'],
    // 31 January 23:30 UTC is already February in Paris, still January in New York.
    ['Europe/Paris', '2030-01-31T23:30:00Z', '2030-01-31T23:00:00.000Z', '2030-02-28T23:00:00.000Z'],
    ['America/New_York', '2030-01-31T23:30:00Z', '2030-01-01T05:00:00.000Z', '2030-02-01T05:00:00.000Z'],
    ['America/New_York', '2030-02-01T05:00:00Z', '2030-02-01T05:00:00.000Z', '2030-03-01T05:00:00.000Z'],
    ['America/New_York', '2030-02-01T04:59:59.999Z', '2030-01-01T05:00:00.000Z', '2030-02-01T05:00:00.000Z'],
    // March starts on winter time and April on summer time.
    ['Europe/Paris', '2030-03-15T12:00:00Z', '2030-02-28T23:00:00.000Z', '2030-03-31T22:00:00.000Z'],
    ['Asia/Kolkata', '2030-06-30T18:29:59Z', '2030-05-31T18:30:00.000Z', '2030-06-30T18:30:00.000Z'],
    ['Pacific/Auckland', '2030-12-31T11:00:00Z', '2030-12-31T11:00:00.000Z', '2031-01-31T11:00:00.000Z'],
    ['UTC', '2030-12-31T23:59:59Z', '2030-12-01T00:00:00.000Z', '2031-01-01T00:00:00.000Z'],
  ])('in %s, %s lies in [%s, %s)', (timeZone, now, start, end) => {
    const bounds = monthBoundsIn(timeZone, new Date(now))
    expect([iso(bounds.start), iso(bounds.end)]).toEqual([start, end])
  })
})

describe('the start of a calendar day', () => {
  it.each([
    ['Europe/Paris', '2030-01-15', '2030-01-14T23:00:00.000Z'],
    ['Europe/Paris', '2030-03-31', '2030-03-30T23:00:00.000Z'], // the day summer time starts
    ['Europe/Paris', '2030-04-01', '2030-03-31T22:00:00.000Z'],
    ['Europe/Paris', '2030-10-27', '2030-10-26T22:00:00.000Z'], // the day winter time starts
    ['America/New_York', '2030-03-10', '2030-03-10T05:00:00.000Z'],
    ['America/New_York', '2030-03-11', '2030-03-11T04:00:00.000Z'],
    ['America/Sao_Paulo', '2030-06-01', '2030-06-01T03:00:00.000Z'],
    ['Asia/Kolkata', '2030-01-01', '2029-12-31T18:30:00.000Z'],
    ['Pacific/Auckland', '2030-01-01', '2029-12-31T11:00:00.000Z'],
  ])('in %s, %s starts at %s', (timeZone, day, start) => {
    expect(iso(startOfDayIn(timeZone, day))).toBe(start)
    expect(calendarDayIn(timeZone, new Date(start))).toBe(day)
    expect(calendarDayIn(timeZone, new Date(new Date(start).getTime() - 1))).not.toBe(day)
  })

  it('pads years, months and days', () => {
    expect(calendarDayIn('UTC', new Date('0999-02-03T00:00:00Z'))).toBe('0999-02-03')
  })
})

describe('a wall-clock time in a zone', () => {
  it.each([
    [
      'Europe/Paris',
      { year: 2030, month: 1, day: 15, hour: 10, minute: 30, second: 15, ms: 250 },
      '2030-01-15T09:30:15.250Z',
    ],
    ['Europe/Paris', { year: 2030, month: 7, day: 1, hour: 12 }, '2030-07-01T10:00:00.000Z'],
    // 02:30 does not exist in Paris on 31 March 2030: read on the other side of the change.
    ['Europe/Paris', { year: 2030, month: 3, day: 31, hour: 2, minute: 30 }, '2030-03-31T01:30:00.000Z'],
    ['America/New_York', { year: 2030, month: 13, day: 1 }, '2031-01-01T05:00:00.000Z'],
    [
      'America/New_York',
      { year: 2030, month: 1, day: 1, hour: 23, minute: 59, second: 59 },
      '2030-01-02T04:59:59.000Z',
    ],
  ])('in %s, %j is %s', (timeZone, wall, instant) => {
    expect(iso(zonedTime(timeZone, wall))).toBe(instant)
  })
})

describe('adding months', () => {
  it.each([
    ['Europe/Paris', '2026-02-28T23:30:00.000Z', 1, '2026-03-31T22:30:00.000Z'], // 1 Mar 00:30 → 1 Apr 00:30
    ['Europe/Paris', '2030-01-30T23:00:00.000Z', 1, '2030-02-27T23:00:00.000Z'], // 31 Jan → 28 Feb
    ['Europe/Paris', '2027-01-30T23:00:00.000Z', 13, '2028-02-28T23:00:00.000Z'], // 31 Jan 2027 → 29 Feb 2028
    ['America/New_York', '2030-01-31T12:00:00.000Z', 1, '2030-02-28T12:00:00.000Z'],
    ['America/New_York', '2030-03-15T12:00:00.123Z', -1, '2030-02-15T13:00:00.123Z'],
    ['Asia/Kolkata', '2030-12-15T06:30:00.000Z', 12, '2031-12-15T06:30:00.000Z'],
  ])('in %s, %s plus %i month(s) is %s', (timeZone, date, months, result) => {
    expect(iso(addMonthsIn(timeZone, new Date(date), months))).toBe(result)
  })

  it.each([
    ['2030-01-31T10:00:00.000Z', 1, '2030-02-28T10:00:00.000Z'],
    ['2028-01-31T10:00:00.000Z', 1, '2028-02-29T10:00:00.000Z'],
    ['2030-01-15T10:00:00.000Z', 12, '2031-01-15T10:00:00.000Z'],
    ['2030-03-31T10:00:00.000Z', -1, '2030-02-28T10:00:00.000Z'],
    ['2030-12-31T10:00:00.000Z', 2, '2031-02-28T10:00:00.000Z'],
  ])('in UTC, %s plus %i month(s) is %s', (date, months, result) => {
    expect(iso(addMonths(new Date(date), months))).toBe(result)
  })
})
