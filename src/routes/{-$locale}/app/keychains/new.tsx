import { createFileRoute, useNavigate } from '@tanstack/react-router'
import { useMembersIfAllowed } from '../../../../api/members.ts'
import { RequireOrganization } from '../../../../app/RequireOrganization.tsx'
import { KeychainNewScreen } from '../../../../features/keychains/KeychainNewScreen.tsx'
import { localizedHref } from '../../../../lib/paths.ts'

export const Route = createFileRoute('/{-$locale}/app/keychains/new')({
  component: () => (
    <RequireOrganization>
      {(organizationId) => <NewKeychain organizationId={organizationId} />}
    </RequireOrganization>
  ),
})

function NewKeychain({ organizationId }: { organizationId: string }) {
  const { locale } = Route.useRouteContext()
  const navigate = useNavigate()
  const members = useMembersIfAllowed(organizationId)
  return (
    <KeychainNewScreen
      organizationId={organizationId}
      members={members}
      onCreated={(keychain) =>
        void navigate({ href: localizedHref(locale, `/app/keychains/${keychain.id}`) })
      }
    />
  )
}
