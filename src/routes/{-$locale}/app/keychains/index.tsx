import { createFileRoute } from '@tanstack/react-router'
import { keychainListQuery } from '../../../../api/keychains.ts'
import { useMembersIfAllowed } from '../../../../api/members.ts'
import { useProfile } from '../../../../api/profile.ts'
import { RequireOrganization } from '../../../../app/RequireOrganization.tsx'
import { KeychainListScreen } from '../../../../features/keychains/KeychainListScreen.tsx'

export const Route = createFileRoute('/{-$locale}/app/keychains/')({
  // The first page is asked for once the session is known, while the page's code loads, not after it renders.
  loader: ({ context }) => {
    const organizationId = context.profile.selectedOrganizationId
    if (organizationId) void context.queryClient.prefetchInfiniteQuery(keychainListQuery(organizationId, ''))
  },
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
