import { createFileRoute } from '@tanstack/react-router'
import { memberQuery } from '../../../../api/members.ts'
import { RequireOrganization } from '../../../../app/RequireOrganization.tsx'
import { startLoading } from '../../../../app/start-loading.ts'
import { MemberDetailScreen } from '../../../../features/members/MemberDetailScreen.tsx'

export const Route = createFileRoute('/{-$locale}/app/users/$id')({
  loader: ({ context, params }) => {
    const organizationId = context.profile.selectedOrganizationId
    if (organizationId) startLoading(context.queryClient, memberQuery(organizationId, params.id))
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
