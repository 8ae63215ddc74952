import { useQueryClient } from '@tanstack/react-query'
import { createFileRoute, useNavigate } from '@tanstack/react-router'
import { profileKey } from '../../../../features/auth/session.ts'
import { organizationKeys, selectOrganization } from '../../../../features/organizations/api.ts'
import { OrganizationNewScreen } from '../../../../features/organizations/OrganizationNewScreen.tsx'
import { localizedHref } from '../../../../lib/paths.ts'

export const Route = createFileRoute('/{-$locale}/app/organizations/new')({
  component: NewOrganization,
})

function NewOrganization() {
  const { locale } = Route.useRouteContext()
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  return (
    <OrganizationNewScreen
      onCreated={async (organization) => {
        // A new organization becomes the selected one: the person creating it wants to work in it.
        await selectOrganization(organization.id)
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: profileKey }),
          queryClient.invalidateQueries({ queryKey: organizationKeys.all }),
        ])
        await navigate({ href: localizedHref(locale, `/app/organizations/${organization.id}`) })
      }}
    />
  )
}
