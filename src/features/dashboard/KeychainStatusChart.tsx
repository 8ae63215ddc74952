import { Trans, useLingui } from '@lingui/react/macro'
import { useId } from 'react'
import {
  type DashboardCharts,
  KEYCHAIN_CHART_STATUSES,
  type KeychainChartStatus,
} from '../../../contract/dashboard.ts'
import { formatNumber } from '../../lib/format.ts'
import { useLocale } from '../../lib/use-locale.ts'

/** Each status's colour, from the palette (so the dark theme turns it over too). */
const COLOURS: Record<KeychainChartStatus, string> = {
  noHolder: 'fill-slate-300 bg-slate-300',
  held: 'fill-brand-300 bg-brand-300',
  scheduled: 'fill-amber-600 bg-amber-600',
  out: 'fill-brand-700 bg-brand-700',
  late: 'fill-red-600 bg-red-600',
}

/**
 * The organization's keychains by status as one bar cut in proportion (drawn, hidden from screen readers), and
 * the same figures as a table beside it, the chart's legend and its text.
 */
export function KeychainStatusChart({ figures }: { figures: DashboardCharts['keychainsByStatus'] }) {
  const { t } = useLingui()
  const id = useId()
  const locale = useLocale()
  const labels: Record<KeychainChartStatus, string> = {
    noHolder: t`No holder`,
    held: t`With a holder`,
    scheduled: t`Transfer scheduled`,
    out: t`Out on a transfer`,
    late: t`Late`,
  }
  const total = KEYCHAIN_CHART_STATUSES.reduce((sum, status) => sum + figures[status], 0)
  let start = 0
  const parts = KEYCHAIN_CHART_STATUSES.map((status) => {
    const width = total === 0 ? 0 : (figures[status] / total) * 100
    const part = { status, x: start, width }
    start += width
    return part
  })
  return (
    <figure aria-labelledby={id} className="flex flex-col gap-3">
      <figcaption id={id} className="font-semibold text-slate-900">
        <Trans>Keychains by status</Trans>
      </figcaption>
      <svg
        aria-hidden
        viewBox="0 0 100 8"
        preserveAspectRatio="none"
        className="h-6 w-full rounded bg-slate-100"
        data-testid="keychain-status-bar"
      >
        {parts.map((part) =>
          part.width > 0 ? (
            <rect
              key={part.status}
              x={part.x}
              y={0}
              width={part.width}
              height={8}
              className={COLOURS[part.status]}
            />
          ) : null,
        )}
      </svg>
      <table className="text-sm">
        <caption className="sr-only">
          <Trans>Keychains by status</Trans>
        </caption>
        <thead className="sr-only">
          <tr>
            <th scope="col">
              <Trans>Status</Trans>
            </th>
            <th scope="col">
              <Trans>Keychains</Trans>
            </th>
          </tr>
        </thead>
        <tbody>
          {KEYCHAIN_CHART_STATUSES.map((status) => (
            <tr key={status}>
              <th scope="row" className="py-0.5 pr-4 text-left font-normal text-slate-700">
                <span className="flex items-center gap-2">
                  <span aria-hidden className={`inline-block size-3 rounded-sm ${COLOURS[status]}`} />
                  {labels[status]}
                </span>
              </th>
              <td className="py-0.5 text-right font-semibold text-slate-900 tabular-nums">
                {formatNumber(figures[status], locale)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  )
}
