/** Calendar arithmetic in a time zone (IANA name), with the platform's Intl data: no library needed. */

const formatters = new Map<string, Intl.DateTimeFormat>()

function partsIn(timeZone: string, date: Date) {
  let format = formatters.get(timeZone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    })
    formatters.set(timeZone, format)
  }
  const parts = Object.fromEntries(
    format
      .formatToParts(date)
      .filter((part) => part.type !== 'literal')
      .map((part) => [part.type, Number(part.value)]),
  ) as Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', number>
  return parts
}

/** The hour (0–23) the zone's wall clock shows at that instant. */
export const hourIn = (timeZone: string, instant: Date): number => partsIn(timeZone, instant).hour

/** How far the zone's wall clock is ahead of UTC at that instant, in ms. */
function offsetAt(timeZone: string, date: Date): number {
  const p = partsIn(timeZone, date)
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second)
  return wall - Math.floor(date.getTime() / 1000) * 1000
}

/**
 * The instant when the zone's wall clock reads that date and time (month may overflow). A wall time skipped
 * by a daylight-saving change reads as the same clock time on the other side of the change.
 */
export function zonedTime(
  timeZone: string,
  wall: {
    year: number
    month: number
    day: number
    hour?: number
    minute?: number
    second?: number
    ms?: number
  },
): Date {
  const guess = Date.UTC(
    wall.year,
    wall.month - 1,
    wall.day,
    wall.hour ?? 0,
    wall.minute ?? 0,
    wall.second ?? 0,
    wall.ms ?? 0,
  )
  const first = guess - offsetAt(timeZone, new Date(guess))
  const second = guess - offsetAt(timeZone, new Date(first))
  return new Date(second)
}

/** The instant when the zone's wall clock reads midnight at the start of that day (month may overflow). */
export function zonedMidnight(timeZone: string, year: number, month: number, day: number): Date {
  return zonedTime(timeZone, { year, month, day })
}

/**
 * The instant a calendar day (`YYYY-MM-DD`) starts in the zone: its local midnight, whatever that day's
 * offset (2030-03-31 starts at 2030-03-30T23:00Z in Paris, although that day ends on summer time).
 */
export function startOfDayIn(timeZone: string, day: string): Date {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number]
  return zonedMidnight(timeZone, year, month, date)
}

/** The instant the zone's wall clock shows `hour`:00 on the calendar day `YYYY-MM-DD`. */
export function atHourIn(timeZone: string, day: string, hour: number): Date {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number]
  return zonedTime(timeZone, { year, month, day: date, hour })
}

/** The calendar day (`YYYY-MM-DD`) the zone's wall clock shows at that instant. */
export function calendarDayIn(timeZone: string, instant: Date): string {
  const { year, month, day } = partsIn(timeZone, instant)
  const pad = (value: number, size: number) => String(value).padStart(size, '0')
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`
}

/** The calendar month (in the zone) holding `now`: `[start, end)`. */
export function monthBoundsIn(timeZone: string, now: Date): { start: Date; end: Date } {
  const { year, month } = partsIn(timeZone, now)
  return { start: zonedMidnight(timeZone, year, month, 1), end: zonedMidnight(timeZone, year, month + 1, 1) }
}

/**
 * `date` plus whole months on the zone's calendar, at the same wall-clock time there, the day clamped to the
 * target month's length: 1 Mar 2026 00:30 Paris + 1 month = 1 Apr 2026 00:30 Paris (across the change to
 * summer time), 31 Jan + 1 month = 28/29 Feb.
 */
export function addMonthsIn(timeZone: string, date: Date, months: number): Date {
  const p = partsIn(timeZone, date)
  const target = new Date(Date.UTC(p.year, p.month - 1 + months, 1))
  const year = target.getUTCFullYear()
  const month = target.getUTCMonth() + 1
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate()
  return zonedTime(timeZone, {
    year,
    month,
    day: Math.min(p.day, lastDay),
    hour: p.hour,
    minute: p.minute,
    second: p.second,
    ms: date.getUTCMilliseconds(),
  })
}

/** `date` plus whole months in UTC, the day clamped to the target month's length (31 Jan + 1 month = 28/29 Feb). */
export function addMonths(date: Date, months: number): Date {
  const day = date.getUTCDate()
  const result = new Date(date)
  result.setUTCDate(1)
  result.setUTCMonth(result.getUTCMonth() + months)
  const lastDay = new Date(Date.UTC(result.getUTCFullYear(), result.getUTCMonth() + 1, 0)).getUTCDate()
  result.setUTCDate(Math.min(day, lastDay))
  return result
}
