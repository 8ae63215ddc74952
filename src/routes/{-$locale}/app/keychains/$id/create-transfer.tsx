import { Trans } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { createFileRoute, useNavigate } from '@tanstack/react-router'
import { keychainQuery } from '../../../../../api/keychain-one.ts'
import { useMembersIfAllowed } from '../../../../../api/members.ts'
import { startLoadingKeychain } from '../../../../../app/keychain-loader.ts'
import { RequireOrganization } from '../../../../../app/RequireOrganization.tsx'
import { useTimeZone } from '../../../../../app/useTimeZone.ts'
import { CreateTransferScreen } from '../../../../../features/transfers/CreateTransferScreen.tsx'
import { localizedHref } from '../../../../../lib/paths.ts'
import { ErrorState, LoadingState } from '../../../../../ui/States.tsx'

export const Route = createFileRoute('/{-$locale}/app/keychains/$id/create-transfer')({
  loader: ({ context, params }) => startLoadingKeychain(context, params.id),
  component: () => (
    <RequireOrganization>
      {(organizationId) => <CreateTransfer key={organizationId} organizationId={organizationId} />}
    </RequireOrganization>
  ),
})

function CreateTransfer({ organizationId }: { organizationId: string }) {
  const { id } = Route.useParams()
  const { locale } = Route.useRouteContext()
  const navigate = useNavigate()
  const members = useMembersIfAllowed(organizationId)
  const timeZone = useTimeZone(organizationId)
  const keychain = useQuery(keychainQuery(organizationId, id))
  if (keychain.isPending) return <LoadingState label={<Trans>Loading the keychain…</Trans>} />
  if (keychain.isError)
    return (
      <ErrorState
        message={<Trans>The keychain could not be loaded.</Trans>}
        onRetry={() => void keychain.refetch()}
        error={keychain.error}
      />
    )
  return (
    <CreateTransferScreen
      organizationId={organizationId}
      keychain={{ id, name: keychain.data.name, custodianId: keychain.data.custodian?.id ?? null }}
      members={members}
      timeZone={timeZone}
      onDone={() => void navigate({ href: localizedHref(locale, `/app/keychains/${id}`) })}
    />
  )
}
