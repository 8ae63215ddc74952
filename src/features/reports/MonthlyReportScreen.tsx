import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import type { Locale } from '../../../contract/locale.ts'
import { MONTHS_MAX, type MonthActivity, type MonthlyKind, monthSpan } from '../../../contract/reports.ts'
import { type MonthRange, monthlyQuery, reportExportHref } from '../../api/reports.ts'
import { formatNumber, intlLocaleOf } from '../../lib/format.ts'
import { useLocale } from '../../lib/use-locale.ts'
import { PageHeader } from '../../ui/Card.tsx'
import { ErrorState, LoadingState } from '../../ui/States.tsx'
import { TextField } from '../../ui/TextField.tsx'
import { ExportLink } from './ExportLink.tsx'
import { cellClass, ReportTable } from './ReportTable.tsx'

/** The kinds of entry the screen shows a column for (the CSV has every kind). */
const COLUMNS: Array<[MonthlyKind, MessageDescriptor]> = [
  ['transfer.authorized', msg`Transfers authorized`],
  ['transfer.picked_up', msg`Pickups`],
  ['transfer.returned', msg`Returns`],
  ['transfer.cancelled', msg`Cancellations`],
  ['keychain.created', msg`Keychains created`],
  ['key.added', msg`Keys added`],
]

const monthNames = new Map<Locale, Intl.DateTimeFormat>()
/** "janvier 2030" / "January 2030". */
function monthName(month: string, locale: Locale): string {
  let format = monthNames.get(locale)
  if (!format) {
    format = new Intl.DateTimeFormat(intlLocaleOf(locale), {
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    })
    monthNames.set(locale, format)
  }
  return format.format(new Date(`${month}-01T00:00:00Z`))
}

function Row({ month }: { month: MonthActivity }) {
  const locale = useLocale()
  const count = (value: number | undefined) => formatNumber(value ?? 0, locale)
  return (
    <tr>
      <th scope="row" className={`${cellClass} font-medium text-slate-900`}>
        {monthName(month.month, locale)}
      </th>
      <td className={cellClass}>{count(month.scans)}</td>
      {COLUMNS.map(([kind]) => (
        <td key={kind} className={cellClass}>
          {count(month.byKind[kind])}
        </td>
      ))}
      <td className={`${cellClass} font-semibold`}>{count(month.entries)}</td>
    </tr>
  )
}

/** `/app/reports/monthly`: scans and ledger entries per month of the organization's zone (the last 12 by default). */
export function MonthlyReportScreen({
  organizationId,
  range,
  onRangeChange,
}: {
  organizationId: string
  range: MonthRange
  onRangeChange: (range: MonthRange) => void
}) {
  const { t, i18n } = useLingui()
  const report = useQuery({ ...monthlyQuery(organizationId, range), placeholderData: keepPreviousData })
  // A range the server would refuse stays in the fields with its problem, and is not asked for.
  const [draft, setDraft] = useState<{ from: string; to: string; problem: string } | null>(null)
  const from = draft?.from ?? range.from ?? report.data?.from ?? ''
  const to = draft?.to ?? range.to ?? report.data?.to ?? ''
  const problemOf = (first: string, last: string) => {
    if (!first || !last) return null
    const span = monthSpan(first, last)
    if (span < 1) return t`The last month comes before the first.`
    if (span > MONTHS_MAX) return t`At most ${MONTHS_MAX} months at a time.`
    return null
  }
  // Both ends as shown are asked for, so changing one keeps the other where the reader sees it (the server
  // would otherwise pick its own, 36 months after a first month alone).
  const change = (next: { from: string; to: string }) => {
    const problem = problemOf(next.from, next.to)
    setDraft(problem ? { ...next, problem } : null)
    if (!problem) onRangeChange({ from: next.from || undefined, to: next.to || undefined })
  }
  return (
    <>
      <PageHeader title={<Trans>Activity per month</Trans>}>
        <ExportLink href={reportExportHref('monthlyExport', range)} fileName="activity-by-month.csv" />
      </PageHeader>
      <div className="mb-6 grid max-w-md gap-4 sm:grid-cols-2">
        <TextField
          label={t`First month`}
          name="from"
          type="month"
          value={from}
          onChange={(value) => change({ from: value, to })}
        />
        <TextField
          label={t`Last month`}
          name="to"
          type="month"
          value={to}
          error={draft?.problem}
          onChange={(value) => change({ from, to: value })}
        />
      </div>
      {report.isPending ? (
        <LoadingState label={<Trans>Loading the report…</Trans>} />
      ) : report.isError ? (
        <ErrorState
          message={<Trans>The report could not be loaded.</Trans>}
          error={report.error}
          onRetry={() => void report.refetch()}
        />
      ) : (
        <ReportTable
          label={t`Activity per month`}
          headers={[t`Month`, t`Scans`, ...COLUMNS.map(([, label]) => i18n._(label)), t`All entries`]}
        >
          {report.data.months.map((month) => (
            <Row key={month.month} month={month} />
          ))}
        </ReportTable>
      )}
    </>
  )
}
