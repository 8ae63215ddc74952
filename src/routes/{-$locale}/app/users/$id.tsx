import { createFileRoute } from '@tanstack/react-router'
import { RequireOrganization } from '../../../../app/RequireOrganization.tsx'
import { UserDetailScreen } from '../../../../features/users/UserDetailScreen.tsx'

export const Route = createFileRoute('/{-$locale}/app/users/$id')({
  component: UserDetail,
})

function UserDetail() {
  const { id } = Route.useParams()
  return (
    <RequireOrganization>
      {(organizationId) => <UserDetailScreen organizationId={organizationId} userId={id} />}
    </RequireOrganization>
  )
}
