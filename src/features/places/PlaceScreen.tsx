import { Trans, useLingui } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { X } from 'lucide-react'
import { useState } from 'react'
import {
  HOOK_HOLDERS,
  type Hook,
  type PlaceDetail,
  STOCKTAKE_INTERVALS,
  type StocktakeInterval,
} from '../../../contract/places.ts'
import { placeQuery, placeTreeQuery, useRemoveHook, useUpdatePlace } from '../../api/places.ts'
import { useAbility } from '../../lib/ability.tsx'
import { formatDateTime } from '../../lib/format.ts'
import { useHref, useLocale } from '../../lib/use-locale.ts'
import { AppLink } from '../../ui/AppLink.tsx'
import { Badge } from '../../ui/Badge.tsx'
import { Card, PageHeader } from '../../ui/Card.tsx'
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx'
import { SelectField } from '../../ui/SelectField.tsx'
import { ErrorState, LoadingState } from '../../ui/States.tsx'
import { toasts } from '../../ui/toast/store.ts'
import { HookLabelsPanel } from './HookLabelsPanel.tsx'
import { HookRangeForm } from './HookRangeForm.tsx'
import { PLACE_KIND_LABELS, placeRefusal, STOCKTAKE_INTERVAL_LABELS } from './labels.ts'
import { StocktakeDue } from './PlacesScreen.tsx'

/** Where it is: the places above it, each a link, then its own name. */
function PlacePath({ place }: { place: PlaceDetail }) {
  const { t } = useLingui()
  const href = useHref()
  const above = place.path.filter((step) => step.id !== place.id)
  return (
    <nav aria-label={t`Path`} className="-mt-4 mb-6 text-sm text-slate-700">
      <ol className="flex flex-wrap items-center gap-1">
        <li>
          <AppLink href={href('/app/places')}>
            <Trans>Places</Trans>
          </AppLink>
        </li>
        {above.map((step) => (
          <li key={step.id} className="flex items-center gap-1">
            <span aria-hidden>›</span>
            <AppLink href={href(`/app/places/${step.id}`)}>{step.name}</AppLink>
          </li>
        ))}
        <li className="flex items-center gap-1" aria-current="page">
          <span aria-hidden>›</span>
          {place.name}
        </li>
      </ol>
    </nav>
  )
}

/** The recurring stocktake: chosen by a manager, read by the others; its next day and the last result. */
function StocktakeCard({
  organizationId,
  place,
  timeZone,
  canEdit,
}: {
  organizationId: string
  place: PlaceDetail
  timeZone: string
  canEdit: boolean
}) {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  const update = useUpdatePlace(organizationId)
  const [error, setError] = useState<string | null>(null)
  const every = place.stocktakeEvery
  const last = place.lastStocktake
  const closed = last ? formatDateTime(last.closedAt, locale) : ''
  const { found, missing, misplaced, unexpected } = last ?? {
    found: 0,
    missing: 0,
    misplaced: 0,
    unexpected: 0,
  }
  const options = [
    { value: '', label: t`No recurring stocktake` },
    ...STOCKTAKE_INTERVALS.map((each) => ({ value: each, label: i18n._(STOCKTAKE_INTERVAL_LABELS[each]) })),
  ]
  return (
    <Card>
      <h2 className="mb-3 font-semibold text-slate-900">
        <Trans>Stocktake</Trans>
      </h2>
      <div className="flex flex-col gap-3">
        {canEdit ? (
          <div className="max-w-xs">
            <SelectField
              label={<Trans>Recurring stocktake</Trans>}
              name="stocktake-every"
              value={every ?? ''}
              options={options}
              isDisabled={update.isPending}
              error={error ?? undefined}
              onChange={(value) => {
                setError(null)
                update.mutate(
                  { id: place.id, stocktakeEvery: value === '' ? null : (value as StocktakeInterval) },
                  {
                    onSuccess: () =>
                      toasts.add({
                        severity: 'success',
                        summary: t`The stocktake has been changed.`,
                        life: 4000,
                      }),
                    onError: (caught) =>
                      setError(placeRefusal(caught, i18n) ?? t`The stocktake could not be changed.`),
                  },
                )
              }}
            />
          </div>
        ) : (
          <p className="text-slate-900">
            {every ? i18n._(STOCKTAKE_INTERVAL_LABELS[every]) : <Trans>No recurring stocktake</Trans>}
          </p>
        )}
        <div>
          <StocktakeDue place={place} timeZone={timeZone} />
        </div>
        <p className="text-sm text-slate-700">
          {last ? (
            <Trans>
              Last stocktake, closed on {closed}: {found} found, {missing} missing, {misplaced} misplaced,{' '}
              {unexpected} unexpected.
            </Trans>
          ) : (
            <Trans>No stocktake of this place has been closed yet.</Trans>
          )}
        </p>
      </div>
    </Card>
  )
}

/** The hooks of a board as a grid: each code with the keychain at home on it, or empty. */
function HookGrid({
  organizationId,
  place,
  canEdit,
}: {
  organizationId: string
  place: PlaceDetail
  canEdit: boolean
}) {
  const { t, i18n } = useLingui()
  const href = useHref()
  const remove = useRemoveHook(organizationId, place.id)
  const [removing, setRemoving] = useState<Hook | null>(null)
  const [refusal, setRefusal] = useState<string | null>(null)
  const code = removing?.code ?? ''
  if (place.hooks.length === 0)
    return (
      <p className="text-sm text-slate-700">
        <Trans>No hook yet.</Trans>
      </p>
    )
  return (
    <>
      {refusal ? (
        <p role="alert" className="mb-3 rounded-lg bg-red-50 p-3 text-sm font-medium text-red-800">
          {refusal}
        </p>
      ) : null}
      <ul aria-label={t`Hooks`} className="grid grid-cols-2 gap-2 sm:grid-cols-4 lg:grid-cols-6">
        {place.hooks.map((hook) => (
          <li
            key={hook.id}
            className={`flex min-h-16 flex-col gap-1 rounded-lg border p-2 text-sm ${
              hook.homeOf.length > 0 ? 'border-brand-300 bg-brand-50' : 'border-slate-200 bg-white'
            }`}
          >
            <span className="flex items-center justify-between gap-1">
              <span className="font-mono font-bold text-slate-900">{hook.code}</span>
              {canEdit ? (
                <button
                  type="button"
                  aria-label={t`Remove hook ${hook.code}`}
                  className="rounded p-1 text-slate-600 hover:bg-red-50 hover:text-red-800"
                  onClick={() => {
                    setRefusal(null)
                    setRemoving(hook)
                  }}
                >
                  <X aria-hidden className="size-4" />
                </button>
              ) : null}
            </span>
            {hook.homeOf.length > 0 ? (
              hook.homeOf.map((keychain) => (
                <AppLink key={keychain.id} href={href(`/app/keychains/${keychain.id}`)}>
                  {keychain.name}
                </AppLink>
              ))
            ) : (
              <span className="text-slate-600">
                <Trans context="hook">Empty</Trans>
              </span>
            )}
          </li>
        ))}
      </ul>
      <ConfirmDialog
        isOpen={removing !== null}
        onOpenChange={(open) => (open ? undefined : setRemoving(null))}
        title={<Trans>Remove hook {code}?</Trans>}
        confirmLabel={<Trans>Remove</Trans>}
        isPending={remove.isPending}
        onConfirm={() => {
          if (!removing) return
          remove.mutate(removing.id, {
            onSuccess: () => {
              setRemoving(null)
              toasts.add({ severity: 'success', summary: t`Hook ${code} has been removed.`, life: 4000 })
            },
            onError: (caught) => {
              setRemoving(null)
              const why = placeRefusal(caught, i18n)
              setRefusal(
                why ? t`Hook ${code} could not be removed. ${why}` : t`Hook ${code} could not be removed.`,
              )
            },
          })
        }}
      >
        <Trans>Its label stops answering. A hook that is a keychain’s home cannot be removed.</Trans>
      </ConfirmDialog>
    </>
  )
}

/** The places right under a site or a room, each a link (from the tree, usually cached by the places screen). */
function ChildPlaces({ organizationId, place }: { organizationId: string; place: PlaceDetail }) {
  const { t, i18n } = useLingui()
  const href = useHref()
  const { data } = useQuery(placeTreeQuery(organizationId))
  const homes = place.homeCount
  const children = (data ?? []).filter((each) => each.parentId === place.id)
  return (
    <Card>
      <h2 className="mb-1 font-semibold text-slate-900">
        <Trans>Inside it</Trans>
      </h2>
      <p className="mb-3 text-sm text-slate-700">
        <Trans>{homes} keychains live on the boards and cabinets under this place.</Trans>
      </p>
      {data && children.length === 0 ? (
        <p className="text-sm text-slate-700">
          <Trans>No place inside it yet.</Trans>
        </p>
      ) : (
        <ul aria-label={t`Inside it`} className="flex flex-col gap-1">
          {children.map((child) => (
            <li key={child.id} className="flex flex-wrap items-center gap-2">
              <AppLink href={href(`/app/places/${child.id}`)}>{child.name}</AppLink>
              <Badge tone={HOOK_HOLDERS.has(child.kind) ? 'brand' : 'neutral'}>
                {i18n._(PLACE_KIND_LABELS[child.kind])}
              </Badge>
            </li>
          ))}
        </ul>
      )}
    </Card>
  )
}

/** The number after the board's highest numbered hook, where a new range starts. */
function nextNumber(hooks: readonly Hook[]): number {
  let highest = 0
  for (const hook of hooks) {
    const digits = /(\d+)$/.exec(hook.code)?.[1]
    if (digits) highest = Math.max(highest, Number(digits))
  }
  return highest + 1
}

/**
 * `/app/places/{id}`: a place, where it is, its hooks as a grid (a board or cabinet) with the keychain at home on
 * each, their labels, and its recurring stocktake. Managers add and remove hooks and set the stocktake.
 */
export function PlaceScreen({
  organizationId,
  id,
  timeZone,
}: {
  organizationId: string
  id: string
  timeZone: string
}) {
  const { i18n } = useLingui()
  const canEdit = useAbility().can('update', 'place')
  const { data: place, isPending, isError, error, refetch } = useQuery(placeQuery(organizationId, id))
  if (isPending) return <LoadingState label={<Trans>Loading the place…</Trans>} />
  if (isError)
    return (
      <ErrorState
        message={<Trans>The place could not be loaded.</Trans>}
        onRetry={() => void refetch()}
        error={error}
      />
    )
  const holdsHooks = HOOK_HOLDERS.has(place.kind)
  const hooks = place.hookCount
  const homes = place.homeCount
  return (
    <>
      <PageHeader title={place.name}>
        <Badge tone={holdsHooks ? 'brand' : 'neutral'}>{i18n._(PLACE_KIND_LABELS[place.kind])}</Badge>
      </PageHeader>
      <PlacePath place={place} />
      <div className="grid gap-6">
        {holdsHooks ? (
          <Card>
            <h2 className="mb-1 font-semibold text-slate-900">
              <Trans>Hooks</Trans>
            </h2>
            <p className="mb-4 text-sm text-slate-700">
              <Trans>
                {hooks} hooks, {homes} keychains at home.
              </Trans>
            </p>
            <HookGrid organizationId={organizationId} place={place} canEdit={canEdit} />
          </Card>
        ) : (
          <ChildPlaces organizationId={organizationId} place={place} />
        )}
        {holdsHooks && canEdit ? (
          <Card>
            <HookRangeForm
              key={place.hooks.length}
              organizationId={organizationId}
              placeId={place.id}
              nextNumber={nextNumber(place.hooks)}
            />
          </Card>
        ) : null}
        {holdsHooks ? (
          <Card>
            <HookLabelsPanel placeId={place.id} hookCount={hooks} />
          </Card>
        ) : null}
        <StocktakeCard organizationId={organizationId} place={place} timeZone={timeZone} canEdit={canEdit} />
      </div>
    </>
  )
}
