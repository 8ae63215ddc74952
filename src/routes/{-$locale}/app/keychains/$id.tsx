import { useQuery } from '@tanstack/react-query'
import { createFileRoute, useNavigate } from '@tanstack/react-router'
import { RequireOrganization } from '../../../../app/RequireOrganization.tsx'
import { KeychainDetailScreen } from '../../../../features/keychains/KeychainDetailScreen.tsx'
import { membersQuery } from '../../../../features/users/api.ts'
import { useAbility } from '../../../../lib/ability.tsx'
import { localizedHref } from '../../../../lib/paths.ts'

export const Route = createFileRoute('/{-$locale}/app/keychains/$id')({
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
  // Custodians are members of the organization; only those who may read members get the list to choose from.
  const canReadMembers = useAbility().can('read', 'member')
  const members = useQuery({ ...membersQuery(organizationId), enabled: canReadMembers }).data ?? []
  return (
    <KeychainDetailScreen
      key={id}
      organizationId={organizationId}
      keychainId={id}
      members={members}
      onDeleted={() => void navigate({ href: localizedHref(locale, '/app/keychains'), replace: true })}
    />
  )
}
