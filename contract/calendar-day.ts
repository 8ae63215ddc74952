/** The calendar day (`YYYY-MM-DD`) that `at` falls on in a time zone. */
export function calendarDayIn(timeZone: string, at: Date): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(at)
  const part = Object.fromEntries(parts.map((item) => [item.type, item.value]))
  return `${part.year}-${part.month}-${part.day}`
}
