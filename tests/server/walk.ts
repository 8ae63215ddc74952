import { calendarDayIn, hourIn, zonedTime } from '../../server/shared/time-zones.ts'
import { HOUR } from './clock.ts'
import type { TestApp } from './harness.ts'

export type Sent = { at: string; to: string; subject: string }

/** `YYYY-MM-DD HH` on the zone's wall clock. */
const wall = (timeZone: string, instant: Date) =>
  `${calendarDayIn(timeZone, instant)} ${String(hourIn(timeZone, instant)).padStart(2, '0')}`

/** The instant the zone's wall clock reads `YYYY-MM-DD HH`. */
export function instant(timeZone: string, at: string): Date {
  const [day, hour] = at.split(' ') as [string, string]
  const [year, month, date] = day.split('-').map(Number) as [number, number, number]
  return zonedTime(timeZone, { year, month, day: date, hour: Number(hour) })
}

/**
 * Moves the clock hour by hour until the zone's wall clock reads `until`, running the jobs due each hour, as a
 * server's poll would: the mails sent on the way, with the hour they went out.
 */
export async function walk(app: TestApp, until: string, timeZone = 'Europe/Paris'): Promise<Sent[]> {
  const sent: Sent[] = []
  const end = instant(timeZone, until).getTime()
  while (app.clock.now().getTime() < end) {
    app.clock.advance(HOUR)
    const before = app.mail.messages.length
    await app.runJobs()
    for (const mail of app.mail.messages.slice(before)) {
      sent.push({ at: wall(timeZone, app.clock.now()), to: mail.to, subject: mail.subject })
    }
  }
  return sent
}
