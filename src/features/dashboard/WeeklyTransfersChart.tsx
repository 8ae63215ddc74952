import { Trans, useLingui } from '@lingui/react/macro'
import { useId } from 'react'
import type { DashboardCharts } from '../../../contract/dashboard.ts'
import { formatCalendarDate, formatNumber } from '../../lib/format.ts'
import { useLocale } from '../../lib/use-locale.ts'

const BAR = 10
const HEIGHT = 40

/**
 * Transfers authorized each week, oldest first, as columns (drawn, hidden from screen readers); a sentence says
 * the total and this week's, and a table (for screen readers) gives every week's figure.
 */
export function WeeklyTransfersChart({ weeks }: { weeks: DashboardCharts['transfersPerWeek'] }) {
  const { t } = useLingui()
  const id = useId()
  const locale = useLocale()
  const highest = Math.max(1, ...weeks.map((week) => week.count))
  const total = formatNumber(
    weeks.reduce((sum, week) => sum + week.count, 0),
    locale,
  )
  const current = formatNumber(weeks.at(-1)?.count ?? 0, locale)
  const count = weeks.length
  const first = weeks[0] ? formatCalendarDate(weeks[0].week, locale) : ''
  return (
    <figure aria-labelledby={id} className="flex flex-col gap-3">
      <figcaption id={id} className="font-semibold text-slate-900">
        <Trans>Transfers per week</Trans>
      </figcaption>
      <p className="text-sm text-slate-700">
        <Trans>
          {total} in the last {count} weeks, {current} this week.
        </Trans>
      </p>
      <svg
        aria-hidden
        viewBox={`0 0 ${weeks.length * BAR} ${HEIGHT}`}
        preserveAspectRatio="none"
        className="h-28 w-full border-b border-slate-300"
        data-testid="weekly-transfers-bars"
      >
        {weeks.map((week, index) => {
          const height = (week.count / highest) * (HEIGHT - 2)
          return (
            <rect
              key={week.week}
              x={index * BAR + 1.5}
              y={HEIGHT - height}
              width={BAR - 3}
              height={height}
              className={index === weeks.length - 1 ? 'fill-brand-700' : 'fill-brand-300'}
            />
          )
        })}
      </svg>
      <div aria-hidden className="flex justify-between text-xs text-slate-600">
        <span>{first}</span>
        <span>{t`This week`}</span>
      </div>
      <table className="sr-only">
        <caption>
          <Trans>Transfers per week</Trans>
        </caption>
        <thead>
          <tr>
            <th scope="col">
              <Trans>Week of</Trans>
            </th>
            <th scope="col">
              <Trans>Transfers</Trans>
            </th>
          </tr>
        </thead>
        <tbody>
          {weeks.map((week) => (
            <tr key={week.week}>
              <th scope="row">{formatCalendarDate(week.week, locale)}</th>
              <td>{formatNumber(week.count, locale)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  )
}
