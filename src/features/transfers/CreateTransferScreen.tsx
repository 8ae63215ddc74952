import { Trans } from '@lingui/react/macro'
import type { Member } from '../../../contract/organizations.ts'
import type { Transfer } from '../../../contract/transfers.ts'
import { useAbility } from '../../lib/ability.tsx'
import { useHref } from '../../lib/use-locale.ts'
import { AppLink } from '../../ui/AppLink.tsx'
import { Card, PageHeader } from '../../ui/Card.tsx'
import { AuthorizeTransferPanel } from './AuthorizeTransferPanel.tsx'

/** `/app/keychains/{id}/create-transfer`: the authorization form on a page of its own. */
export function CreateTransferScreen({
  organizationId,
  keychain,
  members,
  timeZone,
  onDone,
}: {
  organizationId: string
  keychain: { id: string; name: string; custodianId: string | null }
  members: Member[]
  timeZone: string
  onDone: (transfer: Transfer | null) => void
}) {
  const href = useHref()
  const canAuthorize = useAbility().can('create', 'transfer')
  const name = keychain.name
  return (
    <>
      <PageHeader title={<Trans>Transfer “{name}”</Trans>} />
      <p className="-mt-4 mb-6">
        <AppLink href={href(`/app/keychains/${keychain.id}`)}>
          <Trans>Back to the keychain</Trans>
        </AppLink>
      </p>
      <Card className="max-w-2xl">
        {canAuthorize ? (
          <AuthorizeTransferPanel
            organizationId={organizationId}
            keychainId={keychain.id}
            custodianId={keychain.custodianId}
            members={members}
            timeZone={timeZone}
            onCreated={onDone}
            onCancel={() => onDone(null)}
          />
        ) : (
          <p className="text-slate-700">
            <Trans>Only managers and administrators of the organization can authorize transfers.</Trans>
          </p>
        )}
      </Card>
    </>
  )
}
