import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { HandHelping, Pencil, Send, Trash2, UserRoundPen } from 'lucide-react'
import { lazy, type ReactNode, Suspense, useEffect, useRef, useState } from 'react'
import type { Keychain } from '../../../contract/keychains.ts'
import type { Member } from '../../../contract/organizations.ts'
import { keychainKeys } from '../../api/keychain-keys.ts'
import { keychainQuery } from '../../api/keychain-one.ts'
import { useDeleteKeychain } from '../../api/keychains.ts'
import { useAbility } from '../../lib/ability.tsx'
import { formatDate } from '../../lib/format.ts'
import { personName } from '../../lib/labels.ts'
import { useHref, useLocale } from '../../lib/use-locale.ts'
import { AppLink } from '../../ui/AppLink.tsx'
import { Button, buttonClass } from '../../ui/Button.tsx'
import { Card, PageHeader } from '../../ui/Card.tsx'
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx'
import { ErrorState, LoadingState } from '../../ui/States.tsx'
import { toasts } from '../../ui/toast/store.ts'
import { CustodySection } from './CustodySection.tsx'
import { KeychainStatusBadge } from './KeychainStatusBadge.tsx'
import { KeysSection } from './KeysSection.tsx'
import { MoreActions } from './MoreActions.tsx'
import { deletionProblem } from './refusals.ts'
import { undoDeletion } from './undo-deletion.ts'

// Where it lives loads after the page (its data comes from another request anyway), for the roles that read
// places: the place pickers stay off the page's first load.
const KeychainPlaceSection = lazy(() =>
  import('./KeychainPlaceSection.tsx').then((module) => ({ default: module.KeychainPlaceSection })),
)

// The rename form appears in edit mode only: it (and the form library) loads then, not with the page.
const RenameKeychainForm = lazy(() =>
  import('./RenameKeychainForm.tsx').then((module) => ({ default: module.RenameKeychainForm })),
)

/** What a glance at the page should tell: who holds it, the transfer it is on, when it is due. */
function KeychainSummaryCard({ keychain, timeZone }: { keychain: Keychain; timeZone: string }) {
  const locale = useLocale()
  const day = (value: string) => formatDate(value, locale, timeZone)
  const { transfer } = keychain
  return (
    <Card className="mb-6">
      <h2 className="sr-only">
        <Trans>Summary</Trans>
      </h2>
      <dl className="grid gap-4 sm:grid-cols-3">
        <div>
          <dt className="text-sm font-medium text-slate-700">
            <Trans>Holder</Trans>
          </dt>
          <dd className="font-semibold text-slate-900" data-testid="summary-holder">
            {keychain.custodian ? personName(keychain.custodian) : <Trans>Nobody</Trans>}
          </dd>
        </div>
        <div>
          <dt className="text-sm font-medium text-slate-700">
            <Trans>Current transfer</Trans>
          </dt>
          <dd className="flex flex-wrap items-center gap-2 text-slate-900">
            <KeychainStatusBadge keychain={keychain} timeZone={timeZone} />
            {transfer ? (
              <span>
                <Trans>
                  {day(transfer.startsAt)} to {day(transfer.endsAt)}
                </Trans>
              </span>
            ) : keychain.status ? null : (
              <Trans>None</Trans>
            )}
          </dd>
        </div>
        <div>
          <dt className="text-sm font-medium text-slate-700">
            <Trans>Due back</Trans>
          </dt>
          <dd className="font-semibold text-slate-900">
            {transfer && keychain.status !== 'SCHEDULED' ? day(transfer.endsAt) : <Trans>Not due</Trans>}
          </dd>
        </div>
      </dl>
    </Card>
  )
}

export function KeychainDetailScreen({
  organizationId,
  keychainId,
  members,
  timeZone,
  onDeleted,
  transfers,
  viewerId = '',
}: {
  organizationId: string
  keychainId: string
  /** Who is looking: the one who holds it may hand it over to someone's phone. */
  viewerId?: string
  members: Member[]
  timeZone: string
  /** After a deletion (its undo is offered on the list it goes back to). */
  onDeleted: () => void
  /** The keychain's transfer authorizations, composed in by the route. */
  transfers?: (keychain: Keychain) => ReactNode
}) {
  const { t, i18n } = useLingui()
  const href = useHref()
  const ability = useAbility()
  const deleteKeychain = useDeleteKeychain(organizationId)
  const queryClient = useQueryClient()
  const deleted = useRef(false)
  // A deleted keychain's page and custody log leave the cache with its screen, not before: removed while the
  // screen still shows, the next render would ask for them again (and get 404).
  useEffect(
    () => () => {
      if (deleted.current)
        queryClient.removeQueries({ queryKey: keychainKeys.one(organizationId, keychainId) })
    },
    [queryClient, organizationId, keychainId],
  )
  const [confirming, setConfirming] = useState(false)
  const [editing, setEditing] = useState(false)
  const { data: keychain, isPending, error, refetch } = useQuery(keychainQuery(organizationId, keychainId))
  if (isPending) return <LoadingState label={<Trans>Loading the keychain…</Trans>} />
  if (keychain === undefined)
    return (
      <ErrorState
        message={<Trans>The keychain could not be loaded.</Trans>}
        onRetry={() => void refetch()}
        error={error}
      />
    )

  const remove = async () => {
    try {
      await deleteKeychain.mutateAsync(keychain.id)
      deleted.current = true
      undoDeletion.offer({ id: keychain.id, name: keychain.name })
      onDeleted()
    } catch (error) {
      setConfirming(false)
      toasts.add({
        severity: 'error',
        summary: i18n._(deletionProblem(error, msg`The keychain could not be deleted.`)),
        life: 6000,
      })
    }
  }
  const canEdit = ability.can('update', 'keychain')
  const canEditKeys = ability.can('create', 'key')
  // Out on a transfer, it goes back through its transfer, not from hand to hand.
  const canHandOver =
    ability.can('create', 'handover') &&
    viewerId !== '' &&
    keychain.custodian?.id === viewerId &&
    keychain.status !== 'OUT' &&
    keychain.status !== 'OVERDUE'
  return (
    <>
      <PageHeader title={keychain.name}>
        <div className="flex flex-wrap items-center gap-2">
          {canHandOver ? (
            <AppLink href={href(`/app/handover/${keychain.id}`)} className={buttonClass('primary')}>
              <HandHelping aria-hidden className="size-4" />
              <Trans>Hand over</Trans>
            </AppLink>
          ) : null}
          {ability.can('create', 'transfer') ? (
            <AppLink
              href={href(`/app/keychains/${keychain.id}/create-transfer`)}
              className={buttonClass('primary')}
            >
              <Send aria-hidden className="size-4" />
              <Trans>Authorize a transfer</Trans>
            </AppLink>
          ) : null}
          {canEdit ? (
            <a href="#custody-title" className={buttonClass('secondary')}>
              <UserRoundPen aria-hidden className="size-4" />
              <Trans>Change holder</Trans>
            </a>
          ) : null}
          {canEdit || canEditKeys ? (
            <Button variant="secondary" onPress={() => setEditing(!editing)} aria-pressed={editing}>
              <Pencil aria-hidden className="size-4" />
              {editing ? <Trans>Done</Trans> : <Trans>Edit</Trans>}
            </Button>
          ) : null}
          {ability.can('delete', 'keychain') ? (
            <MoreActions label={t`More actions for ${keychain.name}`}>
              <button
                type="button"
                onClick={() => setConfirming(true)}
                className="flex min-h-11 items-center gap-2 rounded-md px-3 text-left text-sm font-medium text-red-800 hover:bg-red-50"
              >
                <Trash2 aria-hidden className="size-4" />
                <Trans>Delete the keychain</Trans>
              </button>
            </MoreActions>
          ) : null}
        </div>
      </PageHeader>
      <p className="-mt-4 mb-6 text-slate-700">
        <Trans>Organization: {keychain.organizationName}</Trans>
      </p>
      <KeychainSummaryCard keychain={keychain} timeZone={timeZone} />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <Card className="flex flex-col gap-6">
          {editing && canEdit ? (
            <Suspense fallback={null}>
              <RenameKeychainForm keychain={keychain} />
            </Suspense>
          ) : null}
          <KeysSection
            organizationId={organizationId}
            keychainId={keychain.id}
            keys={keychain.keys}
            canEdit={editing && canEditKeys}
          />
        </Card>
        <Card className="flex flex-col gap-6">
          <CustodySection
            organizationId={organizationId}
            keychain={keychain}
            members={members}
            canEdit={canEdit}
          />
        </Card>
      </div>
      {transfers ? <div className="mt-6">{transfers(keychain)}</div> : null}
      {/* Last on the page: it loads after the rest, and what arrives late must not push what is already there. */}
      {ability.can('read', 'place') ? (
        <Suspense fallback={null}>
          <KeychainPlaceSection keychain={keychain} timeZone={timeZone} />
        </Suspense>
      ) : null}
      <ConfirmDialog
        isOpen={confirming}
        onOpenChange={setConfirming}
        title={<Trans>Delete this keychain?</Trans>}
        confirmLabel={<Trans>Delete</Trans>}
        onConfirm={() => void remove()}
      >
        <Trans>
          “{keychain.name}” leaves the lists and its tags become free meanwhile. You can undo it right after,
          or restore it later from the deleted keychains.
        </Trans>
      </ConfirmDialog>
    </>
  )
}
