import { createFileRoute, useNavigate } from '@tanstack/react-router'
import { WithOrganization } from '../../../../../../app/WithOrganization.tsx'
import { TagOrderScreen } from '../../../../../../features/orders/TagOrderScreen.tsx'
import { localizedHref } from '../../../../../../lib/paths.ts'

export const Route = createFileRoute('/{-$locale}/app/organizations/$id/new-order/')({
  component: NewOrder,
})

function NewOrder() {
  const { id } = Route.useParams()
  const { locale } = Route.useRouteContext()
  const navigate = useNavigate()
  return (
    <WithOrganization organizationId={id}>
      {(organization) => (
        <TagOrderScreen
          organizationId={id}
          organizationName={organization.name}
          onOrdered={(order) => void navigate({ href: localizedHref(locale, `/app/orders/${order.id}`) })}
        />
      )}
    </WithOrganization>
  )
}
