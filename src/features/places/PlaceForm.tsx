import { Trans, useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import * as v from 'valibot'
import { PLACE_NAME_MAX, type Place, PlaceCreateSchema, type PlaceKind } from '../../../contract/places.ts'
import { useCreatePlace, useUpdatePlace } from '../../api/places.ts'
import { Button } from '../../ui/Button.tsx'
import { SelectField } from '../../ui/SelectField.tsx'
import { TextField } from '../../ui/TextField.tsx'
import { toasts } from '../../ui/toast/store.ts'
import { childKinds, PLACE_KIND_LABELS, placeRefusal, subtreeOf, takesChildren } from './labels.ts'

/** What the form does: a new place under `parent` (null: at the top), or a rename or a move of `place`. */
export type PlaceFormMode =
  | { action: 'create'; parent: Place | null }
  | { action: 'rename'; place: Place }
  | { action: 'move'; place: Place }

const TOP = ''

/** The form above the tree: one at a time, closed once the server has taken the change. */
export function PlaceForm({
  organizationId,
  mode,
  places,
  onDone,
}: {
  organizationId: string
  mode: PlaceFormMode
  places: readonly Place[]
  onDone: () => void
}) {
  const { t, i18n } = useLingui()
  const create = useCreatePlace(organizationId)
  const update = useUpdatePlace(organizationId)
  const { kinds, proposed } = childKinds(mode.action === 'create' ? mode.parent : null)
  const [name, setName] = useState(mode.action === 'rename' ? mode.place.name : '')
  const [kind, setKind] = useState<PlaceKind>(proposed)
  const [parentId, setParentId] = useState(mode.action === 'move' ? (mode.place.parentId ?? TOP) : TOP)
  const [error, setError] = useState<string | undefined>()
  const [refusal, setRefusal] = useState<string | undefined>()
  const pending = create.isPending || update.isPending

  const refused = (caught: unknown) =>
    setRefusal(placeRefusal(caught, i18n) ?? t`The change could not be saved. Try again.`)
  const saved = (summary: string) => {
    toasts.add({ severity: 'success', summary, life: 4000 })
    onDone()
  }

  const submit = () => {
    setRefusal(undefined)
    if (mode.action === 'move') {
      update.mutate(
        { id: mode.place.id, parentId: parentId === TOP ? null : parentId },
        { onSuccess: () => saved(t`The place has been moved.`), onError: refused },
      )
      return
    }
    const checked = v.safeParse(PlaceCreateSchema.entries.name, name)
    if (!checked.success) {
      setError(name.trim() === '' ? t`Give the place a name.` : t`At most ${PLACE_NAME_MAX} characters.`)
      return
    }
    setError(undefined)
    if (mode.action === 'rename')
      update.mutate(
        { id: mode.place.id, name: checked.output },
        { onSuccess: () => saved(t`The place has been renamed.`), onError: refused },
      )
    else
      create.mutate(
        { name: checked.output, kind, parentId: mode.parent?.id ?? null },
        { onSuccess: () => saved(t`The place has been added.`), onError: refused },
      )
  }

  // Where a place may move: the top, or any place that takes children, except itself and what is under it.
  const moving = mode.action === 'move' ? subtreeOf(places, mode.place.id) : new Set<string>()
  const destinations = [
    { value: TOP, label: t`At the top (no place above it)` },
    ...places
      .filter((place) => !moving.has(place.id) && takesChildren(place))
      .map((place) => ({ value: place.id, label: `${'\u00a0\u00a0'.repeat(place.depth)}${place.name}` })),
  ]
  const parentName = mode.action === 'create' ? mode.parent?.name : undefined
  const title =
    mode.action === 'create' ? (
      parentName ? (
        <Trans>New place in {parentName}</Trans>
      ) : (
        <Trans>New top-level place</Trans>
      )
    ) : mode.action === 'rename' ? (
      <Trans>Rename “{mode.place.name}”</Trans>
    ) : (
      <Trans>Move “{mode.place.name}”</Trans>
    )

  return (
    <form
      noValidate
      aria-label={t`Place form`}
      className="flex flex-col gap-4"
      onSubmit={(event) => {
        event.preventDefault()
        submit()
      }}
    >
      <h2 className="font-semibold text-slate-900">{title}</h2>
      <div className="flex flex-wrap items-end gap-4">
        {mode.action === 'move' ? (
          <div className="min-w-64">
            <SelectField
              label={<Trans>Under</Trans>}
              name="parent"
              value={parentId}
              options={destinations}
              onChange={setParentId}
            />
          </div>
        ) : (
          <div className="min-w-64 grow">
            <TextField
              label={<Trans>Name</Trans>}
              name="name"
              value={name}
              onChange={setName}
              error={error}
              maxLength={PLACE_NAME_MAX}
              autoFocus
            />
          </div>
        )}
        {mode.action === 'create' ? (
          <div className="min-w-48">
            <SelectField
              label={<Trans>Kind</Trans>}
              name="kind"
              value={kind}
              options={kinds.map((each) => ({ value: each, label: i18n._(PLACE_KIND_LABELS[each]) }))}
              onChange={(value) => setKind(value as PlaceKind)}
              description={
                kind === 'BOARD' || kind === 'CABINET' ? (
                  <Trans>It holds hooks and has a label of its own; no place goes inside it.</Trans>
                ) : undefined
              }
            />
          </div>
        ) : null}
      </div>
      {refusal ? (
        <p role="alert" className="text-sm font-medium text-red-700">
          {refusal}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" isDisabled={pending}>
          {mode.action === 'create' ? (
            <Trans>Add the place</Trans>
          ) : mode.action === 'rename' ? (
            <Trans>Rename</Trans>
          ) : (
            <Trans>Move</Trans>
          )}
        </Button>
        <Button variant="secondary" onPress={onDone} isDisabled={pending}>
          <Trans>Cancel</Trans>
        </Button>
      </div>
    </form>
  )
}
