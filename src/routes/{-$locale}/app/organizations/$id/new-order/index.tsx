import { useQuery } from '@tanstack/react-query'
import { createFileRoute, useNavigate } from '@tanstack/react-router'
import { RequireSelected } from '../../../../../../app/RequireSelected.tsx'
import { NewOrderScreen } from '../../../../../../features/orders/NewOrderScreen.tsx'
import { organizationQuery } from '../../../../../../features/organizations/api.ts'
import { localizedHref } from '../../../../../../lib/paths.ts'
import { LoadingState } from '../../../../../../ui/States.tsx'

export const Route = createFileRoute('/{-$locale}/app/organizations/$id/new-order/')({
  component: NewOrder,
})

function NewOrder() {
  const { id } = Route.useParams()
  const { locale } = Route.useRouteContext()
  const navigate = useNavigate()
  const organization = useQuery(organizationQuery(id)).data
  if (!organization) return <LoadingState label="…" />
  return (
    <RequireSelected organizationId={id} organizationName={organization.name}>
      <NewOrderScreen
        organizationId={id}
        organizationName={organization.name}
        onOrdered={(order) => void navigate({ href: localizedHref(locale, `/app/orders/${order.id}`) })}
      />
    </RequireSelected>
  )
}
