import { Plural, Trans, useLingui } from '@lingui/react/macro'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { overdueQuery, reportExportHref } from '../../api/reports.ts'
import { formatCalendarDate, formatDateTime } from '../../lib/format.ts'
import { personName } from '../../lib/labels.ts'
import { useLocale } from '../../lib/use-locale.ts'
import { PageHeader } from '../../ui/Card.tsx'
import { useCursorPages } from '../../ui/CursorPager.tsx'
import { EmptyState, ErrorState, LoadingState } from '../../ui/States.tsx'
import { ExportLink } from './ExportLink.tsx'
import { cellClass, ReportTable } from './ReportTable.tsx'

/** `/app/reports/overdue`: transfers picked up and not back a day after their to-date, most overdue first. */
export function OverdueReportScreen({ organizationId }: { organizationId: string }) {
  const { t } = useLingui()
  const locale = useLocale()
  const { cursor, pager } = useCursorPages()
  const list = useQuery({ ...overdueQuery(organizationId, cursor), placeholderData: keepPreviousData })
  return (
    <>
      <PageHeader title={<Trans>Overdue transfers</Trans>}>
        <ExportLink href={reportExportHref('overdueExport')} fileName="overdue-transfers.csv" />
      </PageHeader>
      {list.isPending ? (
        <LoadingState label={<Trans>Loading the report…</Trans>} />
      ) : list.isError ? (
        <ErrorState
          message={<Trans>The report could not be loaded.</Trans>}
          error={list.error}
          onRetry={() => void list.refetch()}
        />
      ) : list.data.data.length === 0 ? (
        <EmptyState title={<Trans>No transfer is overdue.</Trans>} />
      ) : (
        <div className="flex flex-col gap-4">
          <ReportTable
            label={t`Overdue transfers`}
            headers={[t`Keychain`, t`Holder`, t`Due back`, t`Late by`, t`Picked up`]}
          >
            {list.data.data.map((transfer) => (
              <tr key={transfer.id}>
                <td className={`${cellClass} font-medium text-slate-900`}>{transfer.keychainName}</td>
                <td className={cellClass}>{personName(transfer.recipient)}</td>
                <td className={cellClass}>{formatCalendarDate(transfer.toDate, locale)}</td>
                <td className={`${cellClass} font-semibold text-red-800`}>
                  <Plural value={transfer.daysLate} one="# day" other="# days" />
                </td>
                <td className={cellClass}>
                  {transfer.pickedUpAt ? formatDateTime(transfer.pickedUpAt, locale) : '—'}
                </td>
              </tr>
            ))}
          </ReportTable>
          {pager(list.data.nextCursor)}
        </div>
      )}
    </>
  )
}
