import { Trans, useLingui } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import type { StocktakeSummary } from '../../../contract/stocktakes.ts'
import { placeTreeQuery } from '../../api/places.ts'
import { stocktakeListQuery, stocktakesDueQuery, useStartStocktake } from '../../api/stocktakes.ts'
import { useAbility } from '../../lib/ability.tsx'
import { formatDateTime } from '../../lib/format.ts'
import { useHref, useLocale } from '../../lib/use-locale.ts'
import { AppLink } from '../../ui/AppLink.tsx'
import { Badge } from '../../ui/Badge.tsx'
import { Button } from '../../ui/Button.tsx'
import { PageHeader } from '../../ui/Card.tsx'
import { useFailureToast } from '../../ui/failure-toast.ts'
import { SelectField } from '../../ui/SelectField.tsx'
import { EmptyState, ErrorState, LoadingState } from '../../ui/States.tsx'
import { StocktakesDueList } from '../../ui/StocktakesDueList.tsx'

const WHOLE_ORGANIZATION = ''

/** Managers start a stocktake of a place (with what is under it) or of the whole organization. */
function StartForm({
  organizationId,
  onStarted,
}: {
  organizationId: string
  onStarted: (id: string) => void
}) {
  const { t } = useLingui()
  const failed = useFailureToast()
  const places = useQuery(placeTreeQuery(organizationId))
  const start = useStartStocktake(organizationId)
  const [placeId, setPlaceId] = useState(WHOLE_ORGANIZATION)
  const options = [
    { value: WHOLE_ORGANIZATION, label: t`The whole organization` },
    ...(places.data ?? []).map((place) => ({
      value: place.id,
      label: `${'— '.repeat(place.depth)}${place.name}`,
    })),
  ]
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    try {
      const started = await start.mutateAsync(placeId || null)
      onStarted(started.id)
    } catch (error) {
      await failed(t`The stocktake could not be started.`, error)
    }
  }
  return (
    <form
      onSubmit={onSubmit}
      className="mb-6 flex flex-wrap items-end gap-3 rounded-xl border border-slate-200 bg-white p-4"
    >
      <SelectField
        label={t`What to count`}
        name="scope"
        value={placeId}
        options={options}
        onChange={setPlaceId}
      />
      <Button type="submit" isDisabled={start.isPending}>
        <Trans>Start a stocktake</Trans>
      </Button>
    </form>
  )
}

function StocktakeRow({ stocktake }: { stocktake: StocktakeSummary }) {
  const { t } = useLingui()
  const href = useHref()
  const locale = useLocale()
  const { counts } = stocktake
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 px-4 py-3">
      <div className="flex flex-col">
        <AppLink href={href(`/app/stocktakes/${stocktake.id}`)} className="font-semibold text-slate-900">
          {stocktake.scope?.name ?? t`The whole organization`}
        </AppLink>
        <span className="text-sm text-slate-700">{formatDateTime(stocktake.startedAt, locale)}</span>
      </div>
      <span className="text-sm text-slate-700">
        <Trans>
          {counts.found} found, {counts.misplaced} misplaced, {counts.missing} not found, {counts.unexpected}{' '}
          unexpected, of {counts.expected}
        </Trans>
      </span>
      <Badge tone={stocktake.status === 'OPEN' ? 'warning' : 'success'}>
        {stocktake.status === 'OPEN' ? <Trans>Open</Trans> : <Trans>Closed</Trans>}
      </Badge>
    </li>
  )
}

/** `/app/stocktakes`: the places due for their recurring stocktake, starting one, and every stocktake, newest first. */
export function StocktakesScreen({
  organizationId,
  onStarted,
}: {
  organizationId: string
  onStarted: (id: string) => void
}) {
  const ability = useAbility()
  const list = useQuery(stocktakeListQuery(organizationId))
  const due = useQuery(stocktakesDueQuery(organizationId))
  return (
    <>
      <PageHeader title={<Trans>Stocktakes</Trans>} />
      {(due.data ?? []).length > 0 ? (
        <section className="mb-6 rounded-xl border border-amber-200 bg-amber-50 p-4 text-amber-950">
          <h2 className="mb-2 font-semibold">
            <Trans>Due</Trans>
          </h2>
          <StocktakesDueList due={due.data!} />
        </section>
      ) : null}
      {ability.can('create', 'stocktake') ? (
        <StartForm organizationId={organizationId} onStarted={onStarted} />
      ) : null}
      {list.isPending ? (
        <LoadingState label={<Trans>Loading stocktakes…</Trans>} />
      ) : list.isError ? (
        <ErrorState
          message={<Trans>The stocktakes could not be loaded.</Trans>}
          onRetry={() => void list.refetch()}
        />
      ) : list.data.data.length === 0 ? (
        <EmptyState title={<Trans>No stocktake yet.</Trans>} />
      ) : (
        <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
          {list.data.data.map((stocktake) => (
            <StocktakeRow key={stocktake.id} stocktake={stocktake} />
          ))}
        </ul>
      )}
    </>
  )
}
