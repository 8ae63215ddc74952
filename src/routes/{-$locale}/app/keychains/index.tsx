import { useQuery } from '@tanstack/react-query'
import { createFileRoute } from '@tanstack/react-router'
import { RequireOrganization } from '../../../../app/RequireOrganization.tsx'
import { useProfile } from '../../../../features/auth/session.ts'
import { KeychainListScreen } from '../../../../features/keychains/KeychainListScreen.tsx'
import { membersQuery } from '../../../../features/users/api.ts'
import { useAbility } from '../../../../lib/ability.tsx'

export const Route = createFileRoute('/{-$locale}/app/keychains/')({
  component: () => (
    <RequireOrganization>
      {(organizationId) => <Keychains key={organizationId} organizationId={organizationId} />}
    </RequireOrganization>
  ),
})

function Keychains({ organizationId }: { organizationId: string }) {
  const profile = useProfile()
  const canReadMembers = useAbility().can('read', 'member')
  const members = useQuery({ ...membersQuery(organizationId), enabled: canReadMembers }).data ?? []
  return (
    <KeychainListScreen organizationId={organizationId} members={members} currentUserId={profile?.id ?? ''} />
  )
}
