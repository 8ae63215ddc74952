import { Trans } from '@lingui/react/macro'
import { createFileRoute } from '@tanstack/react-router'
import { RequireOrganization } from '../../../../app/RequireOrganization.tsx'
import { useTimeZone } from '../../../../app/useTimeZone.ts'
import { PlacesScreen } from '../../../../features/places/PlacesScreen.tsx'
import { useAbility } from '../../../../lib/ability.tsx'
import { EmptyState } from '../../../../ui/States.tsx'

/** The selected organization's places (`/app/places`), for the roles that read them (never a contact). */
export const Route = createFileRoute('/{-$locale}/app/places/')({
  component: Places,
})

function Places() {
  if (!useAbility().can('read', 'place'))
    return <EmptyState title={<Trans>Your role does not show the places.</Trans>} />
  return (
    <RequireOrganization>
      {(organizationId) => <PlacesOf organizationId={organizationId} />}
    </RequireOrganization>
  )
}

function PlacesOf({ organizationId }: { organizationId: string }) {
  const timeZone = useTimeZone(organizationId)
  return <PlacesScreen key={organizationId} organizationId={organizationId} timeZone={timeZone} />
}
