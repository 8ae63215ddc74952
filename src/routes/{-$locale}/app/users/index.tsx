import { createFileRoute } from '@tanstack/react-router'
import { RequireOrganization } from '../../../../app/RequireOrganization.tsx'
import { MemberListScreen } from '../../../../features/members/MemberListScreen.tsx'

export const Route = createFileRoute('/{-$locale}/app/users/')({
  component: () => (
    <RequireOrganization>
      {(organizationId) => <MemberListScreen organizationId={organizationId} />}
    </RequireOrganization>
  ),
})
