import { Trans, useLingui } from '@lingui/react/macro'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import {
  FOUND_REPORT_STATUSES,
  type FoundReportStatus,
  type FoundReportSummary,
} from '../../../contract/found-reports.ts'
import { foundReportsQuery } from '../../api/found-reports.ts'
import { formatDateTime } from '../../lib/format.ts'
import { useHref, useLocale } from '../../lib/use-locale.ts'
import { AppLink } from '../../ui/AppLink.tsx'
import { Badge } from '../../ui/Badge.tsx'
import { PageHeader } from '../../ui/Card.tsx'
import { useCursorPages } from '../../ui/CursorPager.tsx'
import { SelectField } from '../../ui/SelectField.tsx'
import { EmptyState, ErrorState, LoadingState } from '../../ui/States.tsx'
import { FOUND_REPORT_STATUS_LABELS, FOUND_REPORT_STATUS_TONES } from './labels.ts'

function ReportRow({ report }: { report: FoundReportSummary }) {
  const { i18n } = useLingui()
  const locale = useLocale()
  const href = useHref()
  const when = formatDateTime(report.createdAt, locale)
  return (
    <li className="flex flex-col gap-1 p-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <AppLink href={href(`/app/found-reports/${report.id}`)}>
          <Trans>
            Tag {report.tag.code}, {when}
          </Trans>
        </AppLink>
        <Badge tone={FOUND_REPORT_STATUS_TONES[report.status]}>
          {i18n._(FOUND_REPORT_STATUS_LABELS[report.status])}
        </Badge>
      </div>
      <p className="line-clamp-2 text-sm break-words text-slate-700">{report.message}</p>
      <p className="text-xs text-slate-600">
        {report.keychain ? (
          <Trans>Keychain: {report.keychain.name}</Trans>
        ) : (
          <Trans>The tag is on no keychain.</Trans>
        )}
      </p>
    </li>
  )
}

/** `/app/found-reports`: what finders wrote to the organization, newest first, by status (kept in the URL). */
export function FoundReportListScreen({
  organizationId,
  status,
  onStatusChange,
}: {
  organizationId: string
  status: FoundReportStatus | undefined
  onStatusChange: (status: FoundReportStatus | undefined) => void
}) {
  const { t, i18n } = useLingui()
  const { cursor, pager } = useCursorPages()
  const list = useQuery({
    ...foundReportsQuery(organizationId, status, cursor),
    placeholderData: keepPreviousData,
  })
  return (
    <>
      <PageHeader title={<Trans>Found keys</Trans>} />
      <p className="mb-4 max-w-3xl text-sm text-slate-700">
        <Trans>
          Messages from people who scanned a tag of yours. Their e-mail address stays private: reply from a
          report, Trousseau passes the reply on.
        </Trans>
      </p>
      <div className="mb-4 max-w-xs">
        <SelectField
          label={t`Status`}
          name="status"
          value={status ?? ''}
          onChange={(value) => onStatusChange(FOUND_REPORT_STATUSES.find((each) => each === value))}
          options={[
            { value: '', label: t`All` },
            ...FOUND_REPORT_STATUSES.map((each) => ({
              value: each,
              label: i18n._(FOUND_REPORT_STATUS_LABELS[each]),
            })),
          ]}
        />
      </div>
      {list.isPending ? (
        <LoadingState label={<Trans>Loading the reports…</Trans>} />
      ) : list.data === undefined ? (
        <ErrorState
          message={<Trans>The reports could not be loaded.</Trans>}
          onRetry={() => void list.refetch()}
          error={list.error}
        />
      ) : list.data.data.length === 0 ? (
        <EmptyState title={<Trans>No report here.</Trans>} />
      ) : (
        <>
          <ul
            aria-label={t`Found keys`}
            className="mb-4 divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white shadow-sm"
          >
            {list.data.data.map((report) => (
              <ReportRow key={report.id} report={report} />
            ))}
          </ul>
          {pager(list.data.nextCursor)}
        </>
      )}
    </>
  )
}
