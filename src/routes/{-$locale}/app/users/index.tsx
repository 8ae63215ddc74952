import { createFileRoute } from '@tanstack/react-router'
import { RequireOrganization } from '../../../../app/RequireOrganization.tsx'
import { UserListScreen } from '../../../../features/users/UserListScreen.tsx'

export const Route = createFileRoute('/{-$locale}/app/users/')({
  component: () => (
    <RequireOrganization>
      {(organizationId) => <UserListScreen organizationId={organizationId} />}
    </RequireOrganization>
  ),
})
