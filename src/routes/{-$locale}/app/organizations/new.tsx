import { createFileRoute, useNavigate } from '@tanstack/react-router'
import { useSelectOrganization } from '../../../../api/organizations.ts'
import { OrganizationNewScreen } from '../../../../features/organizations/OrganizationNewScreen.tsx'
import { localizedHref } from '../../../../lib/paths.ts'

export const Route = createFileRoute('/{-$locale}/app/organizations/new')({
  component: NewOrganization,
})

function NewOrganization() {
  const { locale } = Route.useRouteContext()
  const { select } = useSelectOrganization()
  const navigate = useNavigate()
  return (
    <OrganizationNewScreen
      onCreated={async (organization) => {
        // A new organization becomes the selected one: the person creating it wants to work in it.
        await select(organization.id)
        await navigate({ href: localizedHref(locale, `/app/organizations/${organization.id}`) })
      }}
    />
  )
}
