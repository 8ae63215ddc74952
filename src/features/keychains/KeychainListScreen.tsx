import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { Plural, Trans, useLingui } from '@lingui/react/macro'
import { useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { Download, Plus, Search, Undo2, Upload } from 'lucide-react'
import { lazy, Suspense, useDeferredValue, useEffect, useState } from 'react'
import {
  KEYCHAIN_FILTERS,
  KEYCHAIN_SORTS,
  type KeychainFilter,
  type KeychainSort,
  type KeychainSummary,
} from '../../../contract/keychains.ts'
import type { Member } from '../../../contract/organizations.ts'
import { keychainExportHref } from '../../api/keychain-export.ts'
import { keychainListQuery, useRestoreKeychain } from '../../api/keychains.ts'
import { placeTreeQuery } from '../../api/places.ts'
import { useAbility } from '../../lib/ability.tsx'
import { formatDate } from '../../lib/format.ts'
import { personName } from '../../lib/labels.ts'
import { useHref, useLocale } from '../../lib/use-locale.ts'
import { keychainsAwaitingPairing } from '../../offline/pairing-waiting.ts'
import { useOutbox } from '../../offline/useOutbox.ts'
import { AppLink } from '../../ui/AppLink.tsx'
import { Button, buttonClass } from '../../ui/Button.tsx'
import { PageHeader } from '../../ui/Card.tsx'
import { EmptyState, ErrorState, LoadingState } from '../../ui/States.tsx'
import { toasts } from '../../ui/toast/store.ts'
import { custodianOptions } from './custodians.ts'
import { KeychainStatusBadge } from './KeychainStatusBadge.tsx'
import { restoreProblem } from './refusals.ts'
import { UndoDeletionBar } from './UndoDeletionBar.tsx'

const SEARCH_DELAY_MS = 250

// The bar of bulk actions and its dialogs load when the first row is ticked, not with the list.
const KeychainBulkBar = lazy(() =>
  import('./KeychainBulkBar.tsx').then((module) => ({ default: module.KeychainBulkBar })),
)

function useDebounced(value: string): string {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), SEARCH_DELAY_MS)
    return () => clearTimeout(timer)
  }, [value])
  return settled
}

function KeychainRow({
  keychain,
  timeZone,
  onRestore,
  selected,
  onSelect,
  waiting,
}: {
  keychain: KeychainSummary
  timeZone: string
  /** In the deleted list: bring it back (its row has no link, no checkbox). */
  onRestore?: (() => void) | undefined
  selected: boolean
  onSelect: (selected: boolean) => void
  /** Made or changed by a pairing on this device that the server has not had yet. */
  waiting: boolean
}) {
  const { t } = useLingui()
  const href = useHref()
  const locale = useLocale()
  return (
    <li className="flex flex-wrap items-center gap-x-4 gap-y-1 py-3 pr-4 pl-1">
      {onRestore ? (
        <span className="size-11 shrink-0" />
      ) : (
        <label className="-my-1 flex size-11 shrink-0 cursor-pointer items-center justify-center">
          <input
            type="checkbox"
            checked={selected}
            onChange={(event) => onSelect(event.target.checked)}
            aria-label={t`Select ${keychain.name}`}
            className="size-5 accent-brand-600"
          />
        </label>
      )}
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
          {onRestore ? (
            <span className="font-semibold text-slate-900">{keychain.name}</span>
          ) : (
            <AppLink
              href={href(`/app/keychains/${keychain.id}`)}
              className="inline-flex min-h-11 items-center font-semibold text-slate-900 hover:underline lg:min-h-0"
            >
              {keychain.name}
            </AppLink>
          )}
          {onRestore ? null : <KeychainStatusBadge keychain={keychain} timeZone={timeZone} />}
          {waiting ? (
            <span className="text-sm text-amber-900">
              <Trans>(waiting to sync)</Trans>
            </span>
          ) : null}
        </div>
        <p className="text-sm text-slate-700">
          {keychain.custodian ? personName(keychain.custodian) : <Trans>No custodian</Trans>} ·{' '}
          <Plural value={keychain.keyCount} one="# key" other="# keys" />
          {keychain.tagCodes.length > 0 ? ` · ${keychain.tagCodes.join(', ')}` : ''}
          {keychain.home ? (
            <HomeNote home={keychain.home} misplaced={keychain.whereabouts === 'MISPLACED'} />
          ) : null}
          {keychain.deletedAt ? (
            <>
              {' · '}
              <Trans>deleted on {formatDate(keychain.deletedAt, locale, timeZone)}</Trans>
            </>
          ) : null}
        </p>
      </div>
      {onRestore ? (
        <Button variant="secondary" onPress={onRestore} aria-label={t`Restore ${keychain.name}`}>
          <Undo2 aria-hidden className="size-4" />
          <Trans>Restore</Trans>
        </Button>
      ) : null}
    </li>
  )
}

/** Its home hook on its row, and whether it was last seen elsewhere. */
function HomeNote({ home, misplaced }: { home: { code: string; placeName: string }; misplaced: boolean }) {
  const { code, placeName } = home
  return (
    <>
      {' · '}
      {misplaced ? (
        <Trans>
          home {code} ({placeName}), misplaced
        </Trans>
      ) : (
        <Trans>
          home {code} ({placeName})
        </Trans>
      )}
    </>
  )
}

const FILTER_LABELS: Record<KeychainFilter, MessageDescriptor> = {
  free: msg({ message: 'Free', context: 'custody' }),
  held: msg`Held`,
  scheduled: msg`Scheduled`,
  out: msg`Out`,
  overdue: msg`Overdue`,
  unheld: msg`No holder`,
  deleted: msg`Deleted`,
}

const SORT_LABELS: Record<KeychainSort, MessageDescriptor> = {
  name: msg`Name`,
  holder: msg`Holder`,
  changed: msg`Last change`,
  place: msg`Place`,
}

export function KeychainListScreen({
  organizationId,
  members,
  currentUserId,
  timeZone,
  onOpen,
}: {
  organizationId: string
  /** Members to filter by custodian; empty when the caller may not read members. */
  members: Member[]
  currentUserId: string
  timeZone: string
  /** Opens a keychain's page: a whole tag code typed in the search goes straight to its keychain. */
  onOpen: (keychainId: string) => void
}) {
  const { t, i18n } = useLingui()
  const href = useHref()
  const ability = useAbility()
  const restoreKeychain = useRestoreKeychain(organizationId)
  const [search, setSearch] = useState('')
  const q = useDebounced(search.trim())
  const [custodianId, setCustodianId] = useState('')
  const [status, setStatus] = useState<KeychainFilter | ''>('')
  const [sort, setSort] = useState<KeychainSort>('name')
  const readsPlaces = ability.can('read', 'place')
  const [placeId, setPlaceId] = useState('')
  const places = useQuery({ ...placeTreeQuery(organizationId), enabled: readsPlaces })
  const list = useInfiniteQuery(keychainListQuery(organizationId, q, custodianId, status, sort, placeId))
  // The rows render from a deferred copy of the answer, in a background render React splits into short slices:
  // the answer itself arrives in a blocking render, and the first page's 25 rows were one long task on a phone.
  // Null on the screen's first render, so even a page the route's loader already fetched is deferred.
  const shown = useDeferredValue<typeof list.data | null>(list.data, null)
  const keychains = shown?.pages.flatMap((page) => page.data) ?? []
  const tagMatch = list.data?.pages[0]?.tagMatch ?? null
  useEffect(() => {
    if (tagMatch) onOpen(tagMatch)
  }, [tagMatch, onOpen])
  const waiting = keychainsAwaitingPairing(useOutbox(currentUserId) ?? [], organizationId)
  const deletedList = status === 'deleted'
  // The ticked rows, or all matching the filter; a new filter starts afresh.
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set())
  const [allMatching, setAllMatching] = useState(false)
  const filter = `${q}\n${custodianId}\n${status}\n${placeId}`
  const [filterKey, setFilterKey] = useState(filter)
  const clearSelection = () => {
    setPicked(new Set())
    setAllMatching(false)
  }
  if (filterKey !== filter) {
    setFilterKey(filter)
    clearSelection()
  }
  const select = (id: string, selected: boolean) => {
    const next = new Set(allMatching ? keychains.map((keychain) => keychain.id) : picked)
    next[selected ? 'add' : 'delete'](id)
    setAllMatching(false)
    setPicked(next)
  }
  const matchingCount = list.hasNextPage ? null : keychains.length
  // The bulk actions' filter is the name and holder only: a search of tags or holders, or a status, selects
  // the rows loaded (all of them once the list is complete), never a different set on the server.
  const serverFilterMatches = !q && !status && !placeId
  const canSelectAll = filter !== '\n\n\n' && !deletedList && (matchingCount !== null || serverFilterMatches)

  const restore = async (keychain: KeychainSummary) => {
    try {
      await restoreKeychain.mutateAsync(keychain.id)
      toasts.add({ severity: 'success', summary: t`The keychain ${keychain.name} is back.`, life: 4000 })
    } catch (error) {
      toasts.add({
        severity: 'error',
        summary: i18n._(restoreProblem(error, msg`The keychain could not be restored.`)),
        life: 6000,
      })
    }
  }

  return (
    <>
      <PageHeader title={<Trans>Keychains</Trans>}>
        <div className="flex flex-wrap gap-2">
          <a href={keychainExportHref} download="keychains.csv" className={buttonClass('secondary')}>
            <Download aria-hidden className="size-4" />
            <Trans>Export CSV</Trans>
          </a>
          {ability.can('create', 'keychain') ? (
            <>
              <AppLink href={href('/app/keychains/import')} className={buttonClass('secondary')}>
                <Upload aria-hidden className="size-4" />
                <Trans>Import</Trans>
              </AppLink>
              <AppLink href={href('/app/keychains/new')} className={buttonClass('primary')}>
                <Plus aria-hidden className="size-4" />
                <Trans>New keychain</Trans>
              </AppLink>
            </>
          ) : null}
        </div>
      </PageHeader>
      <div className="mb-5 flex flex-wrap items-end gap-3">
        <div className="relative w-full max-w-md">
          <Search aria-hidden className="pointer-events-none absolute top-3 left-3 size-5 text-slate-500" />
          <input
            type="search"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            aria-label={t`Search keychains by name, tag code or holder`}
            placeholder={t`Name, tag code or holder`}
            className="min-h-11 w-full rounded-lg border border-slate-300 bg-white py-2 pr-3 pl-10 text-base focus:border-brand-600 focus:outline-2 focus:outline-brand-600/30"
          />
        </div>
        <label className="flex flex-col gap-1.5 text-sm font-medium text-slate-800">
          <Trans>Status</Trans>
          <select
            value={status}
            onChange={(event) => setStatus(event.target.value as KeychainFilter | '')}
            className="min-h-11 rounded-lg border border-slate-300 bg-white px-3 text-base"
          >
            <option value="">{t`All`}</option>
            {KEYCHAIN_FILTERS.filter((each) => each !== 'deleted' || ability.can('delete', 'keychain')).map(
              (each) => (
                <option key={each} value={each}>
                  {i18n._(FILTER_LABELS[each])}
                </option>
              ),
            )}
          </select>
        </label>
        <label className="flex flex-col gap-1.5 text-sm font-medium text-slate-800">
          <Trans>Held by</Trans>
          <select
            value={custodianId}
            onChange={(event) => setCustodianId(event.target.value)}
            className="min-h-11 rounded-lg border border-slate-300 bg-white px-3 text-base"
          >
            <option value="">{t`Anyone`}</option>
            <option value={currentUserId}>{t`Me`}</option>
            {custodianOptions(members.filter((member) => member.id !== currentUserId)).map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </label>
        {readsPlaces ? (
          <label className="flex flex-col gap-1.5 text-sm font-medium text-slate-800">
            <Trans>Place</Trans>
            <select
              value={placeId}
              onChange={(event) => setPlaceId(event.target.value)}
              className="min-h-11 max-w-64 rounded-lg border border-slate-300 bg-white px-3 text-base"
            >
              <option value="">{t`Anywhere`}</option>
              {(places.data ?? []).map((place) => (
                <option key={place.id} value={place.id}>
                  {`${'\u00a0\u00a0'.repeat(place.depth)}${place.name}`}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <label className="flex flex-col gap-1.5 text-sm font-medium text-slate-800">
          <Trans>Sort by</Trans>
          <select
            value={sort}
            onChange={(event) => setSort(event.target.value as KeychainSort)}
            className="min-h-11 rounded-lg border border-slate-300 bg-white px-3 text-base"
          >
            {KEYCHAIN_SORTS.filter((each) => each !== 'place' || readsPlaces).map((each) => (
              <option key={each} value={each}>
                {i18n._(SORT_LABELS[each])}
              </option>
            ))}
          </select>
        </label>
      </div>
      {list.isPending || (shown == null && list.data !== undefined) ? (
        <LoadingState label={<Trans>Loading keychains…</Trans>} />
      ) : list.isError ? (
        <ErrorState
          message={<Trans>The keychains could not be loaded.</Trans>}
          onRetry={() => void list.refetch()}
        />
      ) : keychains.length === 0 ? (
        <EmptyState
          title={
            deletedList ? (
              <Trans>No deleted keychain.</Trans>
            ) : q || custodianId || status || placeId ? (
              <Trans>No keychain matches this search.</Trans>
            ) : (
              <Trans>No keychains yet.</Trans>
            )
          }
        />
      ) : (
        <>
          {canSelectAll && !allMatching ? (
            <Button variant="ghost" className="mb-2" onPress={() => setAllMatching(true)}>
              {matchingCount === null ? (
                <Trans>Select all matching</Trans>
              ) : (
                <Plural value={matchingCount} one="Select the # matching" other="Select all # matching" />
              )}
            </Button>
          ) : null}
          <ul
            aria-label={t`Keychains`}
            className="divide-y divide-slate-200 overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm"
          >
            {keychains.map((keychain) => (
              <KeychainRow
                key={keychain.id}
                keychain={keychain}
                timeZone={timeZone}
                onRestore={deletedList ? () => void restore(keychain) : undefined}
                selected={allMatching || picked.has(keychain.id)}
                onSelect={(selected) => select(keychain.id, selected)}
                waiting={waiting.has(keychain.id)}
              />
            ))}
          </ul>
          {list.hasNextPage ? (
            <Button
              variant="secondary"
              className="mt-4"
              onPress={() => void list.fetchNextPage()}
              isDisabled={list.isFetchingNextPage}
            >
              {list.isFetchingNextPage ? <Trans>Loading…</Trans> : <Trans>Show more</Trans>}
            </Button>
          ) : null}
        </>
      )}
      {allMatching || picked.size > 0 ? (
        <Suspense fallback={null}>
          <KeychainBulkBar
            organizationId={organizationId}
            members={members}
            selection={
              allMatching
                ? matchingCount !== null
                  ? { ids: keychains.map((keychain) => keychain.id) }
                  : { filter: { custodianId: custodianId || undefined } }
                : { ids: [...picked] }
            }
            count={allMatching ? matchingCount : picked.size}
            onClear={clearSelection}
          />
        </Suspense>
      ) : null}
      <UndoDeletionBar organizationId={organizationId} />
    </>
  )
}
