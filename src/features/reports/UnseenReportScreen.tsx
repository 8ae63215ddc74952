import { Trans, useLingui } from '@lingui/react/macro'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { UNSEEN_DAYS_MAX } from '../../../contract/reports.ts'
import { reportExportHref, unseenQuery } from '../../api/reports.ts'
import { formatDateTime } from '../../lib/format.ts'
import { personName } from '../../lib/labels.ts'
import { useLocale } from '../../lib/use-locale.ts'
import { PageHeader } from '../../ui/Card.tsx'
import { useCursorPages } from '../../ui/CursorPager.tsx'
import { EmptyState, ErrorState, LoadingState } from '../../ui/States.tsx'
import { TextField } from '../../ui/TextField.tsx'
import { ExportLink } from './ExportLink.tsx'
import { cellClass, ReportTable } from './ReportTable.tsx'

const isDays = (text: string) =>
  /^\d{1,4}$/.test(text) && Number(text) >= 1 && Number(text) <= UNSEEN_DAYS_MAX

/** The keychains of one number of days, page after page (a new number starts from the first page). */
function UnseenList({ organizationId, days }: { organizationId: string; days: number }) {
  const { t } = useLingui()
  const locale = useLocale()
  const { cursor, pager } = useCursorPages()
  const list = useQuery({ ...unseenQuery(organizationId, days, cursor), placeholderData: keepPreviousData })
  return list.isPending ? (
    <LoadingState label={<Trans>Loading the report…</Trans>} />
  ) : list.isError ? (
    <ErrorState
      message={<Trans>The report could not be loaded.</Trans>}
      error={list.error}
      onRetry={() => void list.refetch()}
    />
  ) : list.data.data.length === 0 ? (
    <EmptyState title={<Trans>Every keychain was scanned in that time.</Trans>} />
  ) : (
    <div className="flex flex-col gap-4">
      <ReportTable label={t`Keychains not seen`} headers={[t`Keychain`, t`Holder`, t`Tags`, t`Last scan`]}>
        {list.data.data.map((keychain) => (
          <tr key={keychain.id}>
            <td className={`${cellClass} font-medium text-slate-900`}>{keychain.name}</td>
            <td className={cellClass}>{keychain.custodian ? personName(keychain.custodian) : '—'}</td>
            <td className={cellClass}>
              {keychain.tagCodes.length > 0 ? keychain.tagCodes.join(', ') : <Trans>No tag</Trans>}
            </td>
            <td className={cellClass}>
              {keychain.lastScanAt ? formatDateTime(keychain.lastScanAt, locale) : <Trans>Never</Trans>}
            </td>
          </tr>
        ))}
      </ReportTable>
      {pager(list.data.nextCursor)}
    </div>
  )
}

/** `/app/reports/unseen`: keychains none of whose tags was scanned for `days` days, never scanned first. */
export function UnseenReportScreen({
  organizationId,
  days,
  onDaysChange,
}: {
  organizationId: string
  days: number
  onDaysChange: (days: number) => void
}) {
  const { t } = useLingui()
  const [typed, setTyped] = useState(String(days))
  return (
    <>
      <PageHeader title={<Trans>Keychains not seen</Trans>}>
        <ExportLink href={reportExportHref('unseenExport', { days })} fileName="keychains-not-seen.csv" />
      </PageHeader>
      <div className="mb-6 max-w-xs">
        <TextField
          label={t`Not scanned for (days)`}
          name="days"
          type="number"
          value={typed}
          error={isDays(typed) ? undefined : t`A whole number from 1 to ${UNSEEN_DAYS_MAX}.`}
          onChange={(value) => {
            setTyped(value)
            if (isDays(value)) onDaysChange(Number(value))
          }}
        />
      </div>
      <UnseenList key={days} organizationId={organizationId} days={days} />
    </>
  )
}
