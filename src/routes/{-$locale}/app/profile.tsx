import { useQuery } from '@tanstack/react-query'
import { createFileRoute } from '@tanstack/react-router'
import { hasPermission } from '../../../../contract/permissions.ts'
import { profileQuery } from '../../../api/profile.ts'
import { SubscriptionCard } from '../../../features/plans/SubscriptionCard.tsx'
import { ProfileScreen } from '../../../features/profile/ProfileScreen.tsx'

export const Route = createFileRoute('/{-$locale}/app/profile')({
  component: Profile,
})

function Profile() {
  const { profile: initial } = Route.useRouteContext()
  const { data: profile } = useQuery({ ...profileQuery, initialData: initial })
  if (!profile) return null
  const organizationId = profile.selectedOrganizationId
  return (
    <>
      <ProfileScreen key={profile.id} profile={profile} />
      {organizationId && hasPermission(profile.permissions, 'read', 'subscription') ? (
        <div className="mt-6 max-w-2xl">
          <SubscriptionCard organizationId={organizationId} />
        </div>
      ) : null}
    </>
  )
}
