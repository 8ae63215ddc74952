import { Trans } from '@lingui/react/macro'
import { createFileRoute } from '@tanstack/react-router'
import { useProfile } from '../../../../../api/profile.ts'
import { RequireOrganization } from '../../../../../app/RequireOrganization.tsx'
import { GiveScreen } from '../../../../../features/handover/GiveScreen.tsx'
import { useAbility } from '../../../../../lib/ability.tsx'
import { EmptyState } from '../../../../../ui/States.tsx'

/** Handing a keychain I hold to someone's phone, with no network needed (`/app/handover/give/$keychainId`). */
export const Route = createFileRoute('/{-$locale}/app/handover/give/$keychainId')({
  component: Give,
})

function Give() {
  const { keychainId } = Route.useParams()
  const profile = useProfile()
  if (!useAbility().can('create', 'handover'))
    return <EmptyState title={<Trans>Your role does not allow handing keychains over.</Trans>} />
  return (
    <RequireOrganization>
      {(organizationId) =>
        profile ? (
          <GiveScreen
            key={`${profile.id}:${organizationId}:${keychainId}`}
            userId={profile.id}
            organizationId={organizationId}
            keychainId={keychainId}
          />
        ) : null
      }
    </RequireOrganization>
  )
}
