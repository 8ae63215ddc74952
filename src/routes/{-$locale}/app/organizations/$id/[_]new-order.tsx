import { useQuery } from '@tanstack/react-query'
import { createFileRoute, useNavigate } from '@tanstack/react-router'
import { RequireSelected } from '../../../../../app/RequireSelected.tsx'
import { StepOrderScreen } from '../../../../../features/orders/StepOrderScreen.tsx'
import { organizationQuery } from '../../../../../features/organizations/api.ts'
import { localizedHref } from '../../../../../lib/paths.ts'
import { LoadingState } from '../../../../../ui/States.tsx'

export const Route = createFileRoute('/{-$locale}/app/organizations/$id/_new-order')({
  component: StepOrder,
})

function StepOrder() {
  const { id } = Route.useParams()
  const { locale } = Route.useRouteContext()
  const navigate = useNavigate()
  const organization = useQuery(organizationQuery(id)).data
  if (!organization) return <LoadingState label="…" />
  return (
    <RequireSelected organizationId={id} organizationName={organization.name}>
      <StepOrderScreen
        organizationId={id}
        organizationName={organization.name}
        address={organization.address}
        onOrdered={(order) => void navigate({ href: localizedHref(locale, `/app/orders/${order.id}`) })}
      />
    </RequireSelected>
  )
}
