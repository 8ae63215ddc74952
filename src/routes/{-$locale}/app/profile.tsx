import { useQuery, useQueryClient } from '@tanstack/react-query'
import { createFileRoute } from '@tanstack/react-router'
import { profileQuery } from '../../../features/auth/session.ts'
import { ProfileScreen } from '../../../features/profile/ProfileScreen.tsx'

export const Route = createFileRoute('/{-$locale}/app/profile')({
  component: Profile,
})

function Profile() {
  const { profile: initial } = Route.useRouteContext()
  const queryClient = useQueryClient()
  const { data: profile } = useQuery({ ...profileQuery, initialData: initial })
  if (!profile) return null
  return (
    <ProfileScreen
      key={profile.id}
      profile={profile}
      onSaved={(updated) => queryClient.setQueryData(profileQuery.queryKey, updated)}
    />
  )
}
