import { Trans } from '@lingui/react/macro'
import { createFileRoute } from '@tanstack/react-router'
import { useProfile } from '../../../../api/profile.ts'
import { RequireOrganization } from '../../../../app/RequireOrganization.tsx'
import { GiveScreen } from '../../../../features/handover/GiveScreen.tsx'
import { ReceiveScreen } from '../../../../features/handover/ReceiveScreen.tsx'
import { useAbility } from '../../../../lib/ability.tsx'
import { EmptyState } from '../../../../ui/States.tsx'

/**
 * A keychain from hand to hand with no network needed: receiving one (`/app/handover`) or handing one I hold
 * over (`/app/handover/$keychainId`). One route for both: each route costs every page its entry in the route tree.
 */
export const Route = createFileRoute('/{-$locale}/app/handover/{-$keychainId}')({
  component: Handover,
})

function Handover() {
  const { keychainId } = Route.useParams()
  const profile = useProfile()
  if (!useAbility().can('create', 'handover'))
    return <EmptyState title={<Trans>Your role does not allow handing keychains over.</Trans>} />
  return (
    <RequireOrganization>
      {(organizationId) =>
        !profile ? null : keychainId ? (
          <GiveScreen
            key={`${profile.id}:${organizationId}:${keychainId}`}
            userId={profile.id}
            organizationId={organizationId}
            keychainId={keychainId}
          />
        ) : (
          <ReceiveScreen
            key={`${profile.id}:${organizationId}`}
            userId={profile.id}
            organizationId={organizationId}
          />
        )
      }
    </RequireOrganization>
  )
}
