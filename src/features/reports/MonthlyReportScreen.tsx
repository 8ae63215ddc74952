import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import type { Locale } from '../../../contract/locale.ts'
import type { MonthActivity, MonthlyKind } from '../../../contract/reports.ts'
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
          value={range.from ?? report.data?.from ?? ''}
          onChange={(value) => onRangeChange({ ...range, from: value || undefined })}
        />
        <TextField
          label={t`Last month`}
          name="to"
          type="month"
          value={range.to ?? report.data?.to ?? ''}
          onChange={(value) => onRangeChange({ ...range, to: value || undefined })}
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
