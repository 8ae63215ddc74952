import { Trans, useLingui } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { MapPin } from 'lucide-react'
import { useState } from 'react'
import type { Keychain } from '../../../contract/keychains.ts'
import { HOOK_HOLDERS, type KeychainLocation } from '../../../contract/places.ts'
import type { HookRef } from '../../../contract/whereabouts.ts'
import { custodyLogQuery } from '../../api/keychains.ts'
import { keychainLocationQuery, placeQuery, placeTreeQuery, useSetKeychainHome } from '../../api/places.ts'
import { useAbility } from '../../lib/ability.tsx'
import { formatDate, formatDateTime } from '../../lib/format.ts'
import { personName } from '../../lib/labels.ts'
import { useHref, useLocale } from '../../lib/use-locale.ts'
import { AppLink } from '../../ui/AppLink.tsx'
import { Button } from '../../ui/Button.tsx'
import { Card } from '../../ui/Card.tsx'
import { useFailureToast } from '../../ui/failure-toast.ts'
import { SelectField } from '../../ui/SelectField.tsx'
import { toasts } from '../../ui/toast/store.ts'

/** A hook as people name it: its code, its board's name in brackets, the board a link. */
function HookName({ hook }: { hook: HookRef }) {
  const href = useHref()
  const { code, placeName } = hook
  return (
    <AppLink href={href(`/app/places/${hook.placeId}`)}>
      <Trans>
        {code} ({placeName})
      </Trans>
    </AppLink>
  )
}

/** When the holder got it: the custody log's last change to them (already loaded by the custody section). */
function useHeldSince(keychain: Keychain): string | null {
  const { data } = useQuery({
    ...custodyLogQuery(keychain.organizationId, keychain.id),
    enabled: !!keychain.custodian,
  })
  const holder = keychain.custodian?.id
  if (!holder || !data) return null
  // ISO instants sort as text: the last one is the latest.
  return (
    data
      .filter((entry) => entry.to?.id === holder)
      .map((entry) => entry.at)
      .sort()
      .at(-1) ?? null
  )
}

/** Where it is now, in one sentence. */
function Whereabouts({
  keychain,
  location,
  timeZone,
}: {
  keychain: Keychain
  location: KeychainLocation
  timeZone: string
}) {
  const locale = useLocale()
  const since = useHeldSince(keychain)
  const { transfer, custodian } = keychain
  if (location.whereabouts === 'HELD') {
    if ((keychain.status === 'OUT' || keychain.status === 'OVERDUE') && transfer) {
      const until = formatDate(transfer.endsAt, locale, timeZone)
      return <Trans>Out until {until}</Trans>
    }
    if (custodian) {
      const holder = personName(custodian)
      if (since) {
        const when = formatDateTime(since, locale)
        return (
          <Trans>
            Held by {holder} since {when}
          </Trans>
        )
      }
      return <Trans>Held by {holder}</Trans>
    }
    return <Trans>Held by someone</Trans>
  }
  const onHook = location.home ?? location.seenOn
  if (location.whereabouts === 'AT_HOME' && onHook)
    return (
      <Trans>
        On hook <HookName hook={onHook} />
      </Trans>
    )
  if (location.whereabouts === 'MISPLACED' && location.seenOn)
    return (
      <Trans>
        Misplaced: seen on <HookName hook={location.seenOn} />
      </Trans>
    )
  return location.home ? (
    <Trans>Not known: nobody holds it and it has not been seen on a hook since it was last held.</Trans>
  ) : (
    <Trans>Not known: nobody holds it and it has no home hook.</Trans>
  )
}

const NONE = ''

/** A manager's home picker: a board or cabinet, then one of its hooks; or no home at all. */
function HomePicker({
  organizationId,
  keychainId,
  home,
  onDone,
}: {
  organizationId: string
  keychainId: string
  home: HookRef | null
  onDone: () => void
}) {
  const { t } = useLingui()
  const failed = useFailureToast()
  const setHome = useSetKeychainHome(organizationId, keychainId)
  const [boardId, setBoardId] = useState(home?.placeId ?? NONE)
  const [hookId, setHookId] = useState(home?.id ?? NONE)
  const tree = useQuery(placeTreeQuery(organizationId))
  const board = useQuery({ ...placeQuery(organizationId, boardId), enabled: boardId !== NONE })
  const boards = (tree.data ?? []).filter((place) => HOOK_HOLDERS.has(place.kind))
  const hooks = boardId !== NONE && board.data?.id === boardId ? board.data.hooks : []
  const save = (next: string | null) =>
    setHome.mutate(next, {
      onSuccess: () => {
        toasts.add({
          severity: 'success',
          summary: next ? t`The home hook has been changed.` : t`The keychain has no home hook now.`,
          life: 4000,
        })
        onDone()
      },
      onError: (error) => void failed(t`The home hook could not be changed.`, error),
    })
  return (
    <form
      noValidate
      aria-label={t`Home hook`}
      className="flex flex-wrap items-end gap-3"
      onSubmit={(event) => {
        event.preventDefault()
        if (hookId !== NONE) save(hookId)
      }}
    >
      <div className="min-w-48">
        <SelectField
          label={<Trans>Board or cabinet</Trans>}
          name="home-board"
          value={boardId}
          isDisabled={tree.isPending}
          options={[
            { value: NONE, label: tree.isPending ? t`Loading…` : t`Choose a board` },
            ...boards.map((place) => ({ value: place.id, label: place.name })),
          ]}
          onChange={(value) => {
            setBoardId(value)
            setHookId(NONE)
          }}
        />
      </div>
      <div className="min-w-36">
        <SelectField
          label={<Trans>Hook</Trans>}
          name="home-hook"
          value={hookId}
          isDisabled={boardId === NONE || board.isPending}
          options={[
            { value: NONE, label: t`Choose a hook` },
            ...hooks.map((hook) => {
              const { code } = hook
              const others = hook.homeOf
                .filter((keychain) => keychain.id !== keychainId)
                .map((keychain) => keychain.name)
                .join(', ')
              return { value: hook.id, label: others ? t`${code} (home of ${others})` : code }
            }),
          ]}
          onChange={setHookId}
        />
      </div>
      <Button type="submit" isDisabled={hookId === NONE || setHome.isPending}>
        <Trans>Make it its home</Trans>
      </Button>
      {home ? (
        <Button variant="secondary" isDisabled={setHome.isPending} onPress={() => save(null)}>
          <Trans>No home</Trans>
        </Button>
      ) : null}
      <Button variant="ghost" onPress={onDone}>
        <Trans>Cancel</Trans>
      </Button>
    </form>
  )
}

/**
 * The keychain's place: where it is now (on its hook, held, out, misplaced) and its home hook, which a manager
 * chooses or clears. Shown to the roles that read places.
 */
export function KeychainPlaceSection({ keychain, timeZone }: { keychain: Keychain; timeZone: string }) {
  const ability = useAbility()
  const organizationId = keychain.organizationId
  const [picking, setPicking] = useState(false)
  const location = useQuery({
    ...keychainLocationQuery(organizationId, keychain.id),
    enabled: ability.can('read', 'place'),
  })
  if (!ability.can('read', 'place')) return null
  const canEdit = ability.can('update', 'keychain')
  const data = location.data
  return (
    <Card className="mt-6">
      <section aria-labelledby="place-title" className="flex flex-col gap-3">
        <h2 id="place-title" className="flex items-center gap-2 font-semibold text-slate-900">
          <MapPin aria-hidden className="size-4" />
          <Trans>Where it lives</Trans>
        </h2>
        {location.isPending ? (
          <p className="text-sm text-slate-600">
            <Trans>Loading where it is…</Trans>
          </p>
        ) : !data ? (
          <p className="text-sm text-slate-600">
            <Trans>Where it is could not be loaded.</Trans>
          </p>
        ) : (
          <dl className="grid gap-2 text-sm sm:grid-cols-[auto_1fr] sm:gap-x-4">
            <dt className="font-medium text-slate-700">
              <Trans>Now</Trans>
            </dt>
            <dd className="text-slate-900" data-testid="keychain-whereabouts">
              <Whereabouts keychain={keychain} location={data} timeZone={timeZone} />
            </dd>
            <dt className="font-medium text-slate-700">
              <Trans>Home</Trans>
            </dt>
            <dd className="text-slate-900" data-testid="keychain-home">
              {data.home ? <HookName hook={data.home} /> : <Trans>No home hook</Trans>}
            </dd>
          </dl>
        )}
        {canEdit && data ? (
          picking ? (
            <HomePicker
              organizationId={organizationId}
              keychainId={keychain.id}
              home={data.home}
              onDone={() => setPicking(false)}
            />
          ) : (
            <Button variant="secondary" className="self-start" onPress={() => setPicking(true)}>
              {data.home ? <Trans>Change its home hook</Trans> : <Trans>Give it a home hook</Trans>}
            </Button>
          )
        ) : null}
      </section>
    </Card>
  )
}
