import { createFileRoute, useNavigate } from '@tanstack/react-router'
import { useCallback } from 'react'
import { keychainListQuery } from '../../../../api/keychains.ts'
import { useMembersIfAllowed } from '../../../../api/members.ts'
import { useProfile } from '../../../../api/profile.ts'
import { RequireOrganization } from '../../../../app/RequireOrganization.tsx'
import { useTimeZone } from '../../../../app/useTimeZone.ts'
import { KeychainListScreen } from '../../../../features/keychains/KeychainListScreen.tsx'
import { localizedHref } from '../../../../lib/paths.ts'

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
  const timeZone = useTimeZone(organizationId)
  const { locale } = Route.useRouteContext()
  const navigate = useNavigate()
  const open = useCallback(
    (id: string) => void navigate({ href: localizedHref(locale, `/app/keychains/${id}`) }),
    [navigate, locale],
  )
  return (
    <KeychainListScreen
      organizationId={organizationId}
      members={members}
      currentUserId={profile?.id ?? ''}
      timeZone={timeZone}
      onOpen={open}
    />
  )
}
