import { createFileRoute, useNavigate } from '@tanstack/react-router'
import { RequireOrganization } from '../../../../app/RequireOrganization.tsx'
import { KeychainDetailScreen } from '../../../../features/keychains/KeychainDetailScreen.tsx'
import { useMembersIfAllowed } from '../../../../features/users/api.ts'
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
  const members = useMembersIfAllowed(organizationId)
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
