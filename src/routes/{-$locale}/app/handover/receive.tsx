import { Trans } from '@lingui/react/macro'
import { createFileRoute } from '@tanstack/react-router'
import { useProfile } from '../../../../api/profile.ts'
import { RequireOrganization } from '../../../../app/RequireOrganization.tsx'
import { ReceiveScreen } from '../../../../features/handover/ReceiveScreen.tsx'
import { useAbility } from '../../../../lib/ability.tsx'
import { EmptyState } from '../../../../ui/States.tsx'

/** Receiving a keychain from another phone, with no network needed (`/app/handover/receive`). */
export const Route = createFileRoute('/{-$locale}/app/handover/receive')({
  component: Receive,
})

function Receive() {
  const profile = useProfile()
  if (!useAbility().can('create', 'handover'))
    return (
      <EmptyState title={<Trans>Your role does not allow receiving keychains from hand to hand.</Trans>} />
    )
  return (
    <RequireOrganization>
      {(organizationId) =>
        profile ? (
          <ReceiveScreen
            key={`${profile.id}:${organizationId}`}
            userId={profile.id}
            organizationId={organizationId}
          />
        ) : null
      }
    </RequireOrganization>
  )
}
