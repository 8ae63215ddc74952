import { createFileRoute, useNavigate } from '@tanstack/react-router'
import { RequireOrganization } from '../../../../app/RequireOrganization.tsx'
import { StocktakesScreen } from '../../../../features/stocktakes/StocktakesScreen.tsx'
import { localizedHref } from '../../../../lib/paths.ts'

export const Route = createFileRoute('/{-$locale}/app/stocktakes/')({
  component: Stocktakes,
})

function Stocktakes() {
  const { locale } = Route.useRouteContext()
  const navigate = useNavigate()
  return (
    <RequireOrganization>
      {(organizationId) => (
        <StocktakesScreen
          organizationId={organizationId}
          onStarted={(id) => void navigate({ href: localizedHref(locale, `/app/stocktakes/${id}`) })}
        />
      )}
    </RequireOrganization>
  )
}
