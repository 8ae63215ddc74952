import { Trans } from '@lingui/react/macro'
import { createFileRoute } from '@tanstack/react-router'
import { useProfile } from '../../../../api/profile.ts'
import { RequireOrganization } from '../../../../app/RequireOrganization.tsx'
import { HandoverListScreen } from '../../../../features/handover/HandoverListScreen.tsx'
import { HandoverReceiptScreen } from '../../../../features/handover/HandoverReceiptScreen.tsx'
import { useAbility } from '../../../../lib/ability.tsx'
import { EmptyState } from '../../../../ui/States.tsx'

/**
 * Keychains handed from phone to phone (`/app/handovers`: a manager's whole organization, anyone else's own) and
 * one handover with its receipt (`/app/handovers/$id`, from this phone's record offline). One route for both:
 * each route costs every page of the app its entry in the route tree.
 */
export const Route = createFileRoute('/{-$locale}/app/handovers/{-$id}')({
  component: Handovers,
})

function Handovers() {
  const { id } = Route.useParams()
  const profile = useProfile()
  const ability = useAbility()
  if (!ability.can('read', 'handover'))
    return <EmptyState title={<Trans>Your role does not show handovers.</Trans>} />
  return (
    <RequireOrganization>
      {(organizationId) =>
        id ? (
          <HandoverReceiptScreen key={`${organizationId}:${id}`} organizationId={organizationId} id={id} />
        ) : profile ? (
          <HandoverListScreen
            key={organizationId}
            userId={profile.id}
            organizationId={organizationId}
            everyone={ability.can('update', 'keychain')}
          />
        ) : null
      }
    </RequireOrganization>
  )
}
