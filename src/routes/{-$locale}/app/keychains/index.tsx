import { createFileRoute } from '@tanstack/react-router'
import { useMembersIfAllowed } from '../../../../api/members.ts'
import { useProfile } from '../../../../api/profile.ts'
import { RequireOrganization } from '../../../../app/RequireOrganization.tsx'
import { KeychainListScreen } from '../../../../features/keychains/KeychainListScreen.tsx'

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
