import { createFileRoute } from '@tanstack/react-router'
import { hasPermission } from '../../../../../contract/permissions.ts'
import { memberQuery } from '../../../../api/members.ts'
import { RequireOrganization } from '../../../../app/RequireOrganization.tsx'
import { startLoading } from '../../../../app/start-loading.ts'
import { MemberDetailScreen } from '../../../../features/members/MemberDetailScreen.tsx'

export const Route = createFileRoute('/{-$locale}/app/users/$id')({
  loader: ({ context, params }) => {
    const organizationId = context.profile.selectedOrganizationId
    // A member's own page shows no details for roles that do not read members: nothing to start then.
    if (organizationId && hasPermission(context.profile.permissions, 'read', 'member'))
      startLoading(context.queryClient, memberQuery(organizationId, params.id))
  },
  component: UserDetail,
})

function UserDetail() {
  const { id } = Route.useParams()
  return (
    <RequireOrganization>
      {(organizationId) => <MemberDetailScreen organizationId={organizationId} userId={id} />}
    </RequireOrganization>
  )
}
