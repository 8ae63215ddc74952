import { Trans, useLingui } from '@lingui/react/macro'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { type ReactNode, useState } from 'react'
import type { ActivityEntry, ActivityRefs } from '../../../contract/activity.ts'
import { EVENT_KINDS, type EventKind } from '../../../contract/events.ts'
import {
  type ActivityFilter,
  activityExportHref,
  activityHeadQuery,
  activityQuery,
  activitySearch,
  ordered,
  useVerifyActivity,
} from '../../api/activity.ts'
import { useMembersIfAllowed } from '../../api/members.ts'
import { formatDateTime, formatNumber } from '../../lib/format.ts'
import { personName } from '../../lib/labels.ts'
import { useHref, useLocale } from '../../lib/use-locale.ts'
import { AppLink } from '../../ui/AppLink.tsx'
import { Button, buttonClass } from '../../ui/Button.tsx'
import { PageHeader } from '../../ui/Card.tsx'
import { useCursorPages } from '../../ui/CursorPager.tsx'
import { useFailureToast } from '../../ui/failure-toast.ts'
import { SelectField } from '../../ui/SelectField.tsx'
import { EmptyState, ErrorState, LoadingState } from '../../ui/States.tsx'
import { TextField } from '../../ui/TextField.tsx'
import { EntryLine, type Narrow, NarrowLink } from './EntryLine.tsx'
import { EVENT_KIND_LABELS } from './labels.ts'
import { TargetPicker } from './TargetPicker.tsx'

function Entry({ entry, refs, narrow }: { entry: ActivityEntry; refs: ActivityRefs; narrow: Narrow }) {
  const { i18n, t } = useLingui()
  const locale = useLocale()
  const who = entry.actor ? personName(entry.actor) : null
  const done = entry.clientTime ? formatDateTime(entry.clientTime, locale) : null
  return (
    <li className="flex flex-col gap-1 p-3">
      <span className="text-xs font-semibold tracking-wide text-slate-600 uppercase">
        {i18n._(EVENT_KIND_LABELS[entry.kind])}
      </span>
      <span className="text-slate-900">
        <EntryLine entry={entry} refs={refs} narrow={narrow} />
      </span>
      <span className="text-sm text-slate-700">
        {entry.actor && who ? (
          <NarrowLink
            narrow={narrow}
            to={{ person: entry.actor.id }}
            label={t`Only what ${who} did`}
            className="text-slate-800 underline decoration-slate-300 underline-offset-4 hover:decoration-slate-700"
          >
            {who}
          </NarrowLink>
        ) : entry.kind === 'found_report.received' ? (
          <Trans>Someone who found the keys</Trans>
        ) : entry.kind === 'tags.created' || entry.kind === 'tag.replaced' ? (
          <Trans>Trousseau, on its own (a paid order)</Trans>
        ) : (
          <Trans>Someone no longer here</Trans>
        )}{' '}
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

/** A filter on a keychain or tag, shown as a chip that names it and removes it. */
function FilterChip({
  label,
  open,
  onRemove,
  removeLabel,
}: {
  label: ReactNode
  open?: { href: string; label: string } | undefined
  onRemove: () => void
  removeLabel: string
}) {
  return (
    <span className="inline-flex items-center gap-2 rounded-full bg-brand-50 py-0.5 pr-0.5 pl-3 text-sm text-brand-900 ring-1 ring-brand-100 ring-inset">
      <span>{label}</span>
      {open ? (
        <AppLink href={open.href} className="font-semibold text-brand-700 underline underline-offset-4">
          {open.label}
        </AppLink>
      ) : null}
      <button
        type="button"
        aria-label={removeLabel}
        onClick={onRemove}
        className="inline-flex size-11 items-center justify-center rounded-full text-lg leading-none text-brand-800 hover:bg-brand-100 focus-visible:outline-2 focus-visible:outline-brand-600"
      >
        <span aria-hidden="true">×</span>
      </button>
    </span>
  )
}

/** The chips of the keychain and tag the view is narrowed to, named from what the page brought back. */
function FilterChips({
  filter,
  refs,
  onFilterChange,
}: {
  filter: ActivityFilter
  refs: ActivityRefs | undefined
  onFilterChange: (filter: ActivityFilter) => void
}) {
  const { t } = useLingui()
  const href = useHref()
  if (!filter.keychain && !filter.tag) return null
  const keychain = filter.keychain ? refs?.keychains[filter.keychain] : undefined
  const keychainName = keychain?.name ?? '…'
  const tagCode = (filter.tag ? refs?.tags[filter.tag]?.code : undefined) ?? '…'
  return (
    <ul aria-label={t`Filters`} className="mb-4 flex flex-wrap gap-2">
      {filter.keychain ? (
        <li>
          <FilterChip
            label={<Trans>Keychain: {keychainName}</Trans>}
            open={
              keychain && !keychain.deleted
                ? { href: href(`/app/keychains/${filter.keychain}`), label: t`Open` }
                : undefined
            }
            removeLabel={t`Remove the keychain filter`}
            onRemove={() => onFilterChange({ ...filter, keychain: undefined })}
          />
        </li>
      ) : null}
      {filter.tag ? (
        <li>
          <FilterChip
            label={<Trans>Tag: {tagCode}</Trans>}
            removeLabel={t`Remove the tag filter`}
            onRemove={() => onFilterChange({ ...filter, tag: undefined })}
          />
        </li>
      ) : null}
    </ul>
  )
}

/** Who did it: the organization's members (and the person of a shared link, if they are no longer one). */
function PersonField({
  organizationId,
  filter,
  refs,
  onFilterChange,
}: {
  organizationId: string
  filter: ActivityFilter
  refs: ActivityRefs | undefined
  onFilterChange: (filter: ActivityFilter) => void
}) {
  const { t } = useLingui()
  const members = useMembersIfAllowed(organizationId)
  const people = members.map((member) => ({ value: member.id, label: personName(member) }))
  const chosen = filter.person ? refs?.people[filter.person] : undefined
  if (filter.person && !people.some((person) => person.value === filter.person)) {
    people.push({ value: filter.person, label: chosen ? personName(chosen) : '…' })
  }
  people.sort((a, b) => a.label.localeCompare(b.label))
  return (
    <SelectField
      label={t`Who`}
      name="person"
      value={filter.person ?? ''}
      onChange={(value) => onFilterChange({ ...filter, person: value || undefined })}
      options={[{ value: '', label: t`Anyone` }, ...people]}
    />
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

/** `1a56098e…` as `1a56 098e e64b f73f`: enough of the hash to compare by eye with an export or a receipt. */
const fingerprint = (hash: string) => (hash.slice(0, 16).match(/.{4}/g) ?? []).join(' ')

/**
 * The ledger's head as the server signs it: noted, printed on receipts and at the end of every export, it lets
 * anyone check later, without the database, that the log was not rewritten or cut up to it.
 */
function LedgerHead({ organizationId }: { organizationId: string }) {
  const locale = useLocale()
  const head = useQuery(activityHeadQuery(organizationId)).data
  if (!head) return null
  const at = formatDateTime(head.signedAt, locale)
  const seq = formatNumber(head.seq, locale)
  const print = fingerprint(head.hash)
  return (
    <details className="mb-6 max-w-3xl text-sm text-slate-700">
      <summary className="cursor-pointer">
        {head.seq === 0 ? (
          <Trans>Signed ledger head: no entry yet, signed by the server on {at}.</Trans>
        ) : (
          <Trans>
            Signed ledger head: entry {seq}, fingerprint <span className="font-mono">{print}</span>, signed by
            the server on {at}.
          </Trans>
        )}
      </summary>
      <p className="mt-2">
        <Trans>
          Keep this line: an export of the whole log checks against it with npm run verify:activity, even once
          the database is rewritten.
        </Trans>
      </p>
      <code className="mt-1 block rounded bg-slate-100 p-2 font-mono text-xs break-all select-all">
        {head.token}
      </code>
    </details>
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

/**
 * `/app/activity`: the organization's ledger, each entry saying what happened; filtered by kind, person, keychain,
 * tag, days and words (kept in the URL), exportable as CSV exactly as filtered.
 */
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
  const href = useHref()
  const list = useQuery({
    ...activityQuery(organizationId, filter, cursor),
    placeholderData: keepPreviousData,
  })
  const refs = list.data?.refs
  const narrow: Narrow = {
    href: (narrowed) => `${href('/app/activity')}${activitySearch({ ...filter, ...narrowed })}`,
    apply: (narrowed) => onFilterChange(ordered({ ...filter, ...narrowed })),
  }
  return (
    <>
      <PageHeader title={<Trans>Activity</Trans>} />
      <SearchForm value={filter.q ?? ''} onSearch={(q) => onFilterChange({ ...filter, q: q || undefined })} />
      <div className="mb-4 grid max-w-3xl gap-4 sm:grid-cols-2">
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
        <PersonField
          organizationId={organizationId}
          filter={filter}
          refs={refs}
          onFilterChange={onFilterChange}
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
        <div className="sm:col-span-2">
          <TargetPicker organizationId={organizationId} onPick={narrow.apply} />
        </div>
      </div>
      <FilterChips filter={filter} refs={refs} onFilterChange={onFilterChange} />
      <div className="mb-6 flex flex-wrap items-center gap-3">
        <a href={activityExportHref(filter)} download="activity.csv" className={buttonClass('secondary')}>
          <Trans>Export as CSV</Trans>
        </a>
        <Verification />
      </div>
      <LedgerHead organizationId={organizationId} />
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
              <Entry key={entry.seq} entry={entry} refs={list.data.refs} narrow={narrow} />
            ))}
          </ul>
          {pager(list.data.nextCursor)}
        </>
      )}
    </>
  )
}
