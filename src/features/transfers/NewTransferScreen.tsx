import { Trans } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { lazy, Suspense, useState } from 'react'
import type { Member } from '../../../contract/organizations.ts'
import type { Transfer } from '../../../contract/transfers.ts'
import { keychainQuery } from '../../api/keychain-one.ts'
import { useAbility } from '../../lib/ability.tsx'
import { useHref } from '../../lib/use-locale.ts'
import { AppLink } from '../../ui/AppLink.tsx'
import { Button } from '../../ui/Button.tsx'
import { Card, PageHeader } from '../../ui/Card.tsx'
import { ErrorState, LoadingState } from '../../ui/States.tsx'
import { KeychainPicker, type PickedKeychain } from './KeychainPicker.tsx'

// The form (date fields, the recipient list, the allowance) loads once a keychain is picked, not with the picker.
const AuthorizeTransferPanel = lazy(async () => ({
  default: (await import('./AuthorizeTransferPanel.tsx')).AuthorizeTransferPanel,
}))

/** The chosen keychain (who holds it decides who may receive it), then the authorization form. */
function ChosenKeychain({
  organizationId,
  picked,
  members,
  timeZone,
  onChange,
  onDone,
}: {
  organizationId: string
  picked: PickedKeychain
  members: Member[]
  timeZone: string
  onChange: () => void
  onDone: (transfer: Transfer | null) => void
}) {
  const keychain = useQuery(keychainQuery(organizationId, picked.id))
  const name = picked.name
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3 rounded-lg bg-slate-50 p-3">
        <p className="text-slate-900">
          <Trans>
            Keychain: <strong>{name}</strong>
          </Trans>
        </p>
        <Button variant="secondary" onPress={onChange}>
          <Trans>Choose another keychain</Trans>
        </Button>
      </div>
      {keychain.isPending ? (
        <LoadingState label={<Trans>Loading the keychain…</Trans>} />
      ) : keychain.isError ? (
        <ErrorState
          message={<Trans>The keychain could not be loaded.</Trans>}
          onRetry={() => void keychain.refetch()}
          error={keychain.error}
        />
      ) : (
        <Suspense fallback={<LoadingState label={<Trans>Loading the form…</Trans>} />}>
          <AuthorizeTransferPanel
            organizationId={organizationId}
            keychainId={picked.id}
            custodianId={keychain.data.custodian?.id ?? null}
            members={members}
            timeZone={timeZone}
            onCreated={onDone}
            onCancel={() => onDone(null)}
          />
        </Suspense>
      )}
    </div>
  )
}

/** `/app/transfers/new`: pick a keychain (by name, or a tag's code typed or scanned), then authorize its transfer. */
export function NewTransferScreen({
  organizationId,
  members,
  timeZone,
  onDone,
}: {
  organizationId: string
  members: Member[]
  timeZone: string
  onDone: (transfer: Transfer | null) => void
}) {
  const href = useHref()
  const canAuthorize = useAbility().can('create', 'transfer')
  const [picked, setPicked] = useState<PickedKeychain | null>(null)
  return (
    <>
      <PageHeader title={<Trans>New transfer</Trans>} />
      <p className="-mt-4 mb-6">
        <AppLink href={href('/app/transfers')}>
          <Trans>Back to the transfers</Trans>
        </AppLink>
      </p>
      <Card className="max-w-2xl">
        {!canAuthorize ? (
          <p className="text-slate-700">
            <Trans>Only managers and administrators of the organization can authorize transfers.</Trans>
          </p>
        ) : picked ? (
          <ChosenKeychain
            organizationId={organizationId}
            picked={picked}
            members={members}
            timeZone={timeZone}
            onChange={() => setPicked(null)}
            onDone={onDone}
          />
        ) : (
          <KeychainPicker organizationId={organizationId} onPick={setPicked} />
        )}
      </Card>
    </>
  )
}
