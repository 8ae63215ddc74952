import { Plural, Trans, useLingui } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { FolderInput, Pencil, Plus, Trash2 } from 'lucide-react'
import { useState } from 'react'
import { HOOK_HOLDERS, type Place } from '../../../contract/places.ts'
import { placeTreeQuery, useDeletePlace } from '../../api/places.ts'
import { useAbility } from '../../lib/ability.tsx'
import { formatCalendarDate } from '../../lib/format.ts'
import { useHref, useLocale } from '../../lib/use-locale.ts'
import { AppLink } from '../../ui/AppLink.tsx'
import { Badge } from '../../ui/Badge.tsx'
import { Button } from '../../ui/Button.tsx'
import { Card, PageHeader } from '../../ui/Card.tsx'
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx'
import { EmptyState, ErrorState, LoadingState } from '../../ui/States.tsx'
import { toasts } from '../../ui/toast/store.ts'
import { PLACE_KIND_LABELS, placeRefusal, takesChildren, todayIn } from './labels.ts'
import { PlaceForm, type PlaceFormMode } from './PlaceForm.tsx'

/** The recurring stocktake's next day, marked when it has passed. */
export function StocktakeDue({ place, timeZone }: { place: Place; timeZone: string }) {
  const locale = useLocale()
  if (!place.stocktakeDueOn) return null
  const day = formatCalendarDate(place.stocktakeDueOn, locale)
  return place.stocktakeDueOn < todayIn(timeZone) ? (
    <Badge tone="danger">
      <Trans>Stocktake overdue since {day}</Trans>
    </Badge>
  ) : (
    <Badge tone="warning">
      <Trans>Stocktake due on {day}</Trans>
    </Badge>
  )
}

function PlaceRow({
  place,
  timeZone,
  can,
  onEdit,
  onDelete,
}: {
  place: Place
  timeZone: string
  can: { create: boolean; update: boolean; delete: boolean }
  onEdit: (mode: PlaceFormMode) => void
  onDelete: (place: Place) => void
}) {
  const { t, i18n } = useLingui()
  const href = useHref()
  const { name } = place
  const holdsHooks = HOOK_HOLDERS.has(place.kind)
  const hooks = place.hookCount
  const homes = place.homeCount
  const action = 'flex min-h-9 items-center gap-1 rounded-md px-2 text-sm font-medium hover:bg-slate-100'
  return (
    <li
      className="flex flex-wrap items-center gap-x-3 gap-y-1 border-b border-slate-100 py-2 last:border-0"
      style={{ paddingInlineStart: `${place.depth * 1.5}rem` }}
    >
      <AppLink href={href(`/app/places/${place.id}`)}>{name}</AppLink>
      <Badge tone={holdsHooks ? 'brand' : 'neutral'}>{i18n._(PLACE_KIND_LABELS[place.kind])}</Badge>
      {holdsHooks ? (
        <span className="text-sm text-slate-700">
          <Plural value={hooks} one="# hook" other="# hooks" />
        </span>
      ) : null}
      <span className="text-sm text-slate-700">
        <Plural value={homes} _0="no keychain at home" one="# keychain at home" other="# keychains at home" />
      </span>
      <StocktakeDue place={place} timeZone={timeZone} />
      {can.create || can.update || can.delete ? (
        <span className="ms-auto flex flex-wrap gap-1">
          {can.create && takesChildren(place) ? (
            <button
              type="button"
              className={`${action} text-brand-800`}
              aria-label={t`Add inside ${name}`}
              onClick={() => onEdit({ action: 'create', parent: place })}
            >
              <Plus aria-hidden className="size-4" />
              <Trans>Add inside</Trans>
            </button>
          ) : null}
          {can.update ? (
            <>
              <button
                type="button"
                className={`${action} text-slate-800`}
                aria-label={t`Rename ${name}`}
                onClick={() => onEdit({ action: 'rename', place })}
              >
                <Pencil aria-hidden className="size-4" />
                <Trans>Rename</Trans>
              </button>
              <button
                type="button"
                className={`${action} text-slate-800`}
                aria-label={t`Move ${name}`}
                onClick={() => onEdit({ action: 'move', place })}
              >
                <FolderInput aria-hidden className="size-4" />
                <Trans>Move</Trans>
              </button>
            </>
          ) : null}
          {can.delete ? (
            <button
              type="button"
              className={`${action} text-red-800 hover:bg-red-50`}
              aria-label={t`Delete ${name}`}
              onClick={() => onDelete(place)}
            >
              <Trash2 aria-hidden className="size-4" />
              <Trans>Delete</Trans>
            </button>
          ) : null}
        </span>
      ) : null}
    </li>
  )
}

/**
 * `/app/places`: the organization's places as a tree (sites, rooms, boards and cabinets), with each one's hooks,
 * the keychains at home under it and its next stocktake. Managers add, rename, move and delete places.
 */
export function PlacesScreen({ organizationId, timeZone }: { organizationId: string; timeZone: string }) {
  const { t, i18n } = useLingui()
  const ability = useAbility()
  const can = {
    create: ability.can('create', 'place'),
    update: ability.can('update', 'place'),
    delete: ability.can('delete', 'place'),
  }
  const [mode, setMode] = useState<PlaceFormMode | null>(null)
  const [deleting, setDeleting] = useState<Place | null>(null)
  const [refusal, setRefusal] = useState<string | null>(null)
  const remove = useDeletePlace(organizationId)
  const { data: places, isPending, isError, error, refetch } = useQuery(placeTreeQuery(organizationId))
  if (isPending) return <LoadingState label={<Trans>Loading the places…</Trans>} />
  if (isError)
    return (
      <ErrorState
        message={<Trans>The places could not be loaded.</Trans>}
        onRetry={() => void refetch()}
        error={error}
      />
    )

  const edit = (next: PlaceFormMode) => {
    setRefusal(null)
    setMode(next)
  }
  const confirmDelete = (place: Place) => {
    const name = place.name
    setRefusal(null)
    remove.mutate(place.id, {
      onSuccess: () => {
        setDeleting(null)
        toasts.add({ severity: 'success', summary: t`The place has been deleted.`, life: 4000 })
      },
      onError: (caught) => {
        setDeleting(null)
        const why = placeRefusal(caught, i18n)
        setRefusal(why ? t`“${name}” could not be deleted. ${why}` : t`“${name}” could not be deleted.`)
      },
    })
  }
  const deletingName = deleting?.name ?? ''

  return (
    <>
      <PageHeader title={<Trans>Places</Trans>}>
        {can.create ? (
          <Button onPress={() => edit({ action: 'create', parent: null })}>
            <Plus aria-hidden className="size-4" />
            <Trans>Add a place</Trans>
          </Button>
        ) : null}
      </PageHeader>
      <p className="-mt-4 mb-6 max-w-3xl text-slate-700">
        <Trans>
          Where keychains live when nobody holds them: sites, rooms, and the boards and cabinets with numbered
          hooks.
        </Trans>
      </p>
      {refusal ? (
        <p role="alert" className="mb-6 rounded-lg bg-red-50 p-3 text-sm font-medium text-red-800">
          {refusal}
        </p>
      ) : null}
      {mode ? (
        <Card className="mb-6">
          <PlaceForm
            key={JSON.stringify([mode.action, 'place' in mode ? mode.place.id : mode.parent?.id])}
            organizationId={organizationId}
            mode={mode}
            places={places}
            onDone={() => setMode(null)}
          />
        </Card>
      ) : null}
      {places.length === 0 ? (
        <EmptyState title={<Trans>No place yet.</Trans>}>
          {can.create ? (
            <p className="text-sm text-slate-700">
              <Trans>Start with a site, then the rooms in it and their key boards.</Trans>
            </p>
          ) : null}
        </EmptyState>
      ) : (
        <Card>
          <ul aria-label={t`Places`}>
            {places.map((place) => (
              <PlaceRow
                key={place.id}
                place={place}
                timeZone={timeZone}
                can={can}
                onEdit={edit}
                onDelete={setDeleting}
              />
            ))}
          </ul>
        </Card>
      )}
      <ConfirmDialog
        isOpen={deleting !== null}
        onOpenChange={(open) => (open ? undefined : setDeleting(null))}
        title={<Trans>Delete “{deletingName}”?</Trans>}
        confirmLabel={<Trans>Delete</Trans>}
        isPending={remove.isPending}
        onConfirm={() => (deleting ? confirmDelete(deleting) : undefined)}
      >
        <Trans>
          The place and its hooks are deleted, with their labels. A place with places under it, or with
          keychains whose home is one of its hooks, cannot be deleted.
        </Trans>
      </ConfirmDialog>
    </>
  )
}
