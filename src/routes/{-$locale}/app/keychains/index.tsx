import { createFileRoute } from '@tanstack/react-router'
import { RequireOrganization } from '../../../../app/RequireOrganization.tsx'
import { useProfile } from '../../../../features/auth/session.ts'
import { KeychainListScreen } from '../../../../features/keychains/KeychainListScreen.tsx'
import { useMembersIfAllowed } from '../../../../features/users/api.ts'

export const Route = createFileRoute('/{-$locale}/app/keychains/')({
  component: () => (
    <RequireOrganization>
      {(organizationId) => <Keychains key={organizationId} organizationId={organizationId} />}
    </RequireOrganization>
  ),
})

function Keychains({ organizationId }: { organizationId: string }) {
  const profile = useProfile()
  const members = useMembersIfAllowed(organizationId)
  return (
    <KeychainListScreen organizationId={organizationId} members={members} currentUserId={profile?.id ?? ''} />
  )
}
