import { createFileRoute } from '@tanstack/react-router'
import { useProfile } from '../../../../api/profile.ts'
import { stocktakeQuery } from '../../../../api/stocktakes.ts'
import { RequireOrganization } from '../../../../app/RequireOrganization.tsx'
import { startLoading } from '../../../../app/start-loading.ts'
import { StocktakeScreen } from '../../../../features/stocktakes/StocktakeScreen.tsx'

export const Route = createFileRoute('/{-$locale}/app/stocktakes/$id')({
  loader: ({ context, params }) => {
    const organizationId = context.profile.selectedOrganizationId
    if (organizationId) startLoading(context.queryClient, stocktakeQuery(organizationId, params.id))
  },
  component: Stocktake,
})

function Stocktake() {
  const { id } = Route.useParams()
  const profile = useProfile()
  return (
    <RequireOrganization>
      {(organizationId) =>
        profile ? (
          <StocktakeScreen
            key={`${organizationId}:${id}`}
            context={{ userId: profile.id, organizationId, permissions: profile.permissions }}
            id={id}
          />
        ) : null
      }
    </RequireOrganization>
  )
}
