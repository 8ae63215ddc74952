import { Trans } from '@lingui/react/macro'
import { createFileRoute } from '@tanstack/react-router'
import { placeQuery } from '../../../../api/places.ts'
import { RequireOrganization } from '../../../../app/RequireOrganization.tsx'
import { startLoading } from '../../../../app/start-loading.ts'
import { useTimeZone } from '../../../../app/useTimeZone.ts'
import { PlaceScreen } from '../../../../features/places/PlaceScreen.tsx'
import { useAbility } from '../../../../lib/ability.tsx'
import { EmptyState } from '../../../../ui/States.tsx'

/** A place's page (`/app/places/{id}`): its path, its hooks, their labels and its recurring stocktake. */
export const Route = createFileRoute('/{-$locale}/app/places/$id')({
  loader: ({ context, params }) => {
    const organizationId = context.profile.selectedOrganizationId
    if (organizationId && context.profile.permissions.includes('read__place'))
      startLoading(context.queryClient, placeQuery(organizationId, params.id))
  },
  component: Place,
})

function Place() {
  if (!useAbility().can('read', 'place'))
    return <EmptyState title={<Trans>Your role does not show the places.</Trans>} />
  return (
    <RequireOrganization>
      {(organizationId) => <PlaceOf organizationId={organizationId} />}
    </RequireOrganization>
  )
}

function PlaceOf({ organizationId }: { organizationId: string }) {
  const { id } = Route.useParams()
  const timeZone = useTimeZone(organizationId)
  return <PlaceScreen key={id} organizationId={organizationId} id={id} timeZone={timeZone} />
}
