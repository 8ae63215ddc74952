import { Trans, useLingui } from '@lingui/react/macro'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import type { ActivityEntry } from '../../../contract/activity.ts'
import { EVENT_KINDS, type EventKind } from '../../../contract/events.ts'
import {
  type ActivityFilter,
  activityExportHref,
  activityQuery,
  useVerifyActivity,
} from '../../api/activity.ts'
import { formatDateTime, formatNumber } from '../../lib/format.ts'
import { personName } from '../../lib/labels.ts'
import { useLocale } from '../../lib/use-locale.ts'
import { Button, buttonClass } from '../../ui/Button.tsx'
import { PageHeader } from '../../ui/Card.tsx'
import { useCursorPages } from '../../ui/CursorPager.tsx'
import { useFailureToast } from '../../ui/failure-toast.ts'
import { SelectField } from '../../ui/SelectField.tsx'
import { EmptyState, ErrorState, LoadingState } from '../../ui/States.tsx'
import { TextField } from '../../ui/TextField.tsx'
import { EVENT_KIND_LABELS } from './labels.ts'

function Entry({ entry }: { entry: ActivityEntry }) {
  const { i18n } = useLingui()
  const locale = useLocale()
  const who = entry.actor ? personName(entry.actor) : null
  const done = entry.clientTime ? formatDateTime(entry.clientTime, locale) : null
  return (
    <li className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 p-3">
      <span className="font-medium text-slate-900">{i18n._(EVENT_KIND_LABELS[entry.kind])}</span>
      <span className="text-sm text-slate-700">
        {who ??
          (entry.kind === 'found_report.received' ? (
            <Trans>Someone who found the keys</Trans>
          ) : (
            <Trans>Someone no longer here</Trans>
          ))}{' '}
        · {formatDateTime(entry.serverTime, locale)}
        {entry.fromQueue && done ? (
          <>
            {' '}
            · <Trans>done offline at {done}</Trans>
          </>
        ) : null}
      </span>
    </li>
  )
}

/** The ledger's chain check, on demand. */
function Verification() {
  const locale = useLocale()
  const verify = useVerifyActivity()
  const failed = useFailureToast()
  const { t } = useLingui()
  const result = verify.data
  const entries = result ? formatNumber(result.entries, locale) : ''
  const broken = result?.brokenAt ?? 0
  return (
    <div className="flex flex-wrap items-center gap-3" role="status">
      <Button
        variant="secondary"
        isDisabled={verify.isPending}
        onPress={() => verify.mutate(undefined, { onError: (error) => failed(t`The check failed.`, error) })}
      >
        <Trans>Check the ledger</Trans>
      </Button>
      {result ? (
        result.valid ? (
          <span className="text-sm text-emerald-800">
            <Trans>Intact: {entries} entries, none changed or removed.</Trans>
          </span>
        ) : (
          <span className="text-sm font-medium text-red-800">
            <Trans>Tampered with: entry #{broken} or the one before it was changed or removed.</Trans>
          </span>
        )
      ) : null}
    </div>
  )
}

/** Words to find in what entries name (a keychain, key, tag or person), searched when submitted. */
function SearchForm({ value, onSearch }: { value: string; onSearch: (q: string) => void }) {
  const { t } = useLingui()
  const [text, setText] = useState(value)
  return (
    <search className="mb-4 block max-w-3xl">
      <form
        className="flex flex-wrap items-end gap-3"
        onSubmit={(event) => {
          event.preventDefault()
          onSearch(text.trim())
        }}
      >
        <div className="min-w-0 flex-1">
          <TextField
            label={t`Search a keychain, key, tag or person`}
            name="q"
            value={text}
            maxLength={100}
            onChange={setText}
          />
        </div>
        <Button type="submit" variant="secondary">
          <Trans>Search</Trans>
        </Button>
      </form>
    </search>
  )
}

/** `/app/activity`: the organization's ledger, filtered by kind and days (kept in the URL), exportable as CSV. */
export function ActivityScreen({
  organizationId,
  filter,
  onFilterChange,
}: {
  organizationId: string
  filter: ActivityFilter
  onFilterChange: (filter: ActivityFilter) => void
}) {
  const { t, i18n } = useLingui()
  const { cursor, pager } = useCursorPages()
  const list = useQuery({
    ...activityQuery(organizationId, filter, cursor),
    placeholderData: keepPreviousData,
  })
  return (
    <>
      <PageHeader title={<Trans>Activity</Trans>} />
      <SearchForm value={filter.q ?? ''} onSearch={(q) => onFilterChange({ ...filter, q: q || undefined })} />
      <div className="mb-4 grid max-w-3xl gap-4 sm:grid-cols-3">
        <SelectField
          label={t`What`}
          name="kind"
          value={filter.kind ?? ''}
          onChange={(value) =>
            onFilterChange({ ...filter, kind: (value || undefined) as EventKind | undefined })
          }
          options={[
            { value: '', label: t`Everything` },
            ...EVENT_KINDS.map((kind) => ({ value: kind, label: i18n._(EVENT_KIND_LABELS[kind]) })),
          ]}
        />
        <TextField
          label={t`From`}
          name="from"
          type="date"
          value={filter.from ?? ''}
          onChange={(value) => onFilterChange({ ...filter, from: value || undefined })}
        />
        <TextField
          label={t`To`}
          name="to"
          type="date"
          value={filter.to ?? ''}
          onChange={(value) => onFilterChange({ ...filter, to: value || undefined })}
        />
      </div>
      <div className="mb-6 flex flex-wrap items-center gap-3">
        <a href={activityExportHref(filter)} download="activity.csv" className={buttonClass('secondary')}>
          <Trans>Export as CSV</Trans>
        </a>
        <Verification />
      </div>
      {list.isPending ? (
        <LoadingState label={<Trans>Loading the activity…</Trans>} />
      ) : list.data === undefined ? (
        <ErrorState
          message={<Trans>The activity could not be loaded.</Trans>}
          onRetry={() => void list.refetch()}
        />
      ) : list.data.data.length === 0 ? (
        <EmptyState title={<Trans>Nothing happened in this view.</Trans>}>
          {Object.values(filter).some((value) => value !== undefined && value !== '') ? (
            <Button variant="secondary" onPress={() => onFilterChange({})}>
              <Trans>Clear the filters</Trans>
            </Button>
          ) : null}
        </EmptyState>
      ) : (
        <>
          <ul
            aria-label={t`Activity`}
            className="mb-4 divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white shadow-sm"
          >
            {list.data.data.map((entry) => (
              <Entry key={entry.seq} entry={entry} />
            ))}
          </ul>
          {pager(list.data.nextCursor)}
        </>
      )}
    </>
  )
}
