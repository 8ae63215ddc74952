import { createFileRoute, useNavigate } from '@tanstack/react-router'
import { useMembersIfAllowed } from '../../../../../api/members.ts'
import { useProfile } from '../../../../../api/profile.ts'
import { startLoadingKeychain } from '../../../../../app/keychain-loader.ts'
import { RequireOrganization } from '../../../../../app/RequireOrganization.tsx'
import { useTimeZone } from '../../../../../app/useTimeZone.ts'
import { KeychainDetailScreen } from '../../../../../features/keychains/KeychainDetailScreen.tsx'
import { KeychainTransfersSection } from '../../../../../features/transfers/KeychainTransfersSection.tsx'
import { useAbility } from '../../../../../lib/ability.tsx'
import { localizedHref } from '../../../../../lib/paths.ts'

export const Route = createFileRoute('/{-$locale}/app/keychains/$id/')({
  loader: ({ context, params }) => startLoadingKeychain(context, params.id),
  component: () => (
    <RequireOrganization>
      {(organizationId) => <KeychainDetail organizationId={organizationId} />}
    </RequireOrganization>
  ),
})

function KeychainDetail({ organizationId }: { organizationId: string }) {
  const { id } = Route.useParams()
  const { locale } = Route.useRouteContext()
  const navigate = useNavigate()
  const members = useMembersIfAllowed(organizationId)
  const timeZone = useTimeZone(organizationId)
  const canReadTransfers = useAbility().can('read', 'transfer')
  const viewerId = useProfile()?.id ?? ''
  return (
    <KeychainDetailScreen
      key={id}
      organizationId={organizationId}
      keychainId={id}
      members={members}
      timeZone={timeZone}
      viewerId={viewerId}
      onDeleted={() => void navigate({ href: localizedHref(locale, '/app/keychains'), replace: true })}
      transfers={(keychain) =>
        canReadTransfers ? (
          <KeychainTransfersSection
            organizationId={organizationId}
            keychain={{ id: keychain.id, custodianId: keychain.custodian?.id ?? null }}
            members={members}
            timeZone={timeZone}
          />
        ) : null
      }
    />
  )
}
