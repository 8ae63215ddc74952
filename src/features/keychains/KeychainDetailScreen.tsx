import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { Trash2 } from 'lucide-react'
import { type ReactNode, useState } from 'react'
import type { Keychain } from '../../../contract/keychains.ts'
import type { Member } from '../../../contract/organizations.ts'
import { keychainQuery, useDeleteKeychain, useUpdateKeychain } from '../../api/keychains.ts'
import { useAbility } from '../../lib/ability.tsx'
import { Button } from '../../ui/Button.tsx'
import { Card, PageHeader } from '../../ui/Card.tsx'
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx'
import { useFailureToast } from '../../ui/failure-toast.ts'
import { useAppForm } from '../../ui/form.tsx'
import { ErrorState, LoadingState } from '../../ui/States.tsx'
import { toasts } from '../../ui/toast/store.ts'
import { CustodySection } from './CustodySection.tsx'
import { KeysSection } from './KeysSection.tsx'
import { keychainNameProblem } from './name-check.ts'
import { deletionProblem } from './refusals.ts'

function RenameForm({ keychain }: { keychain: Keychain }) {
  const { t, i18n } = useLingui()
  const failed = useFailureToast()
  const updateKeychain = useUpdateKeychain(keychain.organizationId)
  const form = useAppForm({
    defaultValues: { name: keychain.name },
    onSubmit: async ({ value, formApi }) => {
      try {
        await updateKeychain.mutateAsync({ id: keychain.id, update: { name: value.name } })
        formApi.reset({ name: value.name.trim() })
        toasts.add({ severity: 'success', summary: t`The name has been changed.`, life: 4000 })
      } catch (error) {
        failed(t`The name could not be changed.`, error)
      }
    },
  })
  return (
    <form
      noValidate
      aria-label={t`Rename the keychain`}
      className="grid items-start gap-4 sm:grid-cols-[1fr_auto]"
      onSubmit={(event) => {
        event.preventDefault()
        void form.handleSubmit()
      }}
    >
      <form.AppField
        name="name"
        validators={{
          onSubmit: ({ value }) => {
            const problem = keychainNameProblem(value)
            return problem ? i18n._(problem) : undefined
          },
        }}
      >
        {(field) => <field.TextField label={t`Name`} />}
      </form.AppField>
      <form.Subscribe selector={(state) => [state.isSubmitting, state.isDirty] as const}>
        {([isSubmitting, isDirty]) => (
          <Button type="submit" variant="secondary" className="sm:mt-7" isDisabled={isSubmitting || !isDirty}>
            <Trans>Rename</Trans>
          </Button>
        )}
      </form.Subscribe>
    </form>
  )
}

export function KeychainDetailScreen({
  organizationId,
  keychainId,
  members,
  onDeleted,
  transfers,
}: {
  organizationId: string
  keychainId: string
  members: Member[]
  onDeleted: () => void
  /** The keychain's transfer authorizations, composed in by the route. */
  transfers?: (keychain: Keychain) => ReactNode
}) {
  const { t, i18n } = useLingui()
  const ability = useAbility()
  const deleteKeychain = useDeleteKeychain(organizationId)
  const [confirming, setConfirming] = useState(false)
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
      toasts.add({
        severity: 'success',
        summary: t`The keychain ${keychain.name} has been deleted.`,
        life: 4000,
      })
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
  return (
    <>
      <PageHeader title={keychain.name}>
        {ability.can('delete', 'keychain') ? (
          <Button variant="secondary" onPress={() => setConfirming(true)}>
            <Trash2 aria-hidden className="size-4" />
            <Trans>Delete</Trans>
          </Button>
        ) : null}
      </PageHeader>
      <p className="-mt-4 mb-6 text-slate-700">
        <Trans>Organization: {keychain.organizationName}</Trans>
      </p>
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <Card className="flex flex-col gap-6">
          {canEdit ? <RenameForm keychain={keychain} /> : null}
          <KeysSection
            organizationId={organizationId}
            keychainId={keychain.id}
            keys={keychain.keys}
            canEdit={ability.can('create', 'key')}
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
      <ConfirmDialog
        isOpen={confirming}
        onOpenChange={setConfirming}
        title={<Trans>Delete this keychain?</Trans>}
        confirmLabel={<Trans>Delete</Trans>}
        onConfirm={() => void remove()}
      >
        <Trans>
          “{keychain.name}” and its keys will be deleted; its tags become free for another key. This cannot be
          undone.
        </Trans>
      </ConfirmDialog>
    </>
  )
}
